import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope, toObjectId } from '../common/tenancy';
import { readTogether, type UnionPart } from '../database/read-together';
import { Shop } from './shop.schema';

/** The store-platform part of a shop record (fulfillments): settings.platform and the encrypted token. */
export interface ShopPlatformSettings {
  _id: Types.ObjectId;
  domain: string;
  platform: string;
  platformAccessTokenEnc: string | null;
  updatedAt: Date;
}

/** A shop's stored secrets, as the rotation command reads them. */
export interface ShopSecrets {
  _id: Types.ObjectId;
  webhookSecret: string;
  settings?: { platformAccessTokenEnc?: string | null };
}

/**
 * The only repository of the shops collection. Shops are the tenants themselves, so it does not
 * extend the tenant base: it is reached only by sign-in (domain + key), the operator CLI and
 * services that already hold a verified shop id or scope (then always by that id).
 */
@Injectable()
export class ShopsRepository {
  /** The audit outbox of the shop document (settings, profile fields, platform). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(Shop.name) private readonly model: Model<Shop>) {
    this.outbox = new ModelOutbox(model, '_id');
  }

  async create(data: Pick<Shop, '_id' | 'domain' | 'name' | 'apiKeyHash' | 'webhookSecret'>): Promise<Shop> {
    const doc = await this.model.create(data);
    return doc.toObject();
  }

  /**
   * Secrets rotation: the next shops after `after` in id order with their stored secrets (a
   * cross-shop read of the operator command, served by the _id index).
   */
  secretsPage(after: Types.ObjectId | null, limit: number): Promise<ShopSecrets[]> {
    return this.model
      .find(after ? { _id: { $gt: after } } : {}, { webhookSecret: 1, 'settings.platformAccessTokenEnc': 1 })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<ShopSecrets[]>()
      .exec();
  }

  /**
   * Replaces a shop's stored secrets only if they are still what was read (compare-and-set), so a
   * token set through the API meanwhile is never overwritten with an older one. False when changed.
   */
  async replaceSecrets(
    before: ShopSecrets,
    after: { webhookSecret: string; platformAccessTokenEnc: string | null },
  ) {
    const res = await this.model
      .updateOne(
        {
          _id: before._id,
          webhookSecret: before.webhookSecret,
          'settings.platformAccessTokenEnc': before.settings?.platformAccessTokenEnc ?? null,
        },
        {
          $set: {
            webhookSecret: after.webhookSecret,
            'settings.platformAccessTokenEnc': after.platformAccessTokenEnc,
          },
        },
      )
      .exec();
    return res.modifiedCount === 1;
  }

  findByDomain(domain: string): Promise<Shop | null> {
    return this.model.findOne({ domain }).lean<Shop>().exec();
  }

  findById(shopId: string): Promise<Shop | null> {
    const id = toObjectId(shopId);
    return id ? this.model.findOne({ _id: id }).lean<Shop>().exec() : Promise.resolve(null);
  }

  /**
   * The shop and, in the same command, the documents of other collections' parts (each built by
   * its own repository: database/read-together.ts). Null shop: none with this id.
   */
  async findByIdWith(
    shopId: string,
    parts: UnionPart[],
  ): Promise<{ shop: Shop | null; parts: Map<string, Array<Record<string, unknown>>> }> {
    const id = toObjectId(shopId);
    if (!id) return { shop: null, parts: new Map() };
    const { head, parts: found } = await readTogether(this.model, { _id: id }, parts);
    return { shop: head[0] ?? null, parts: found };
  }

  /** Counts refunds waiting for their order (+1 when one starts waiting, −1 when it is applied). */
  async addRefundsWaiting(shopId: string, n: number): Promise<void> {
    const id = toObjectId(shopId);
    if (id && n !== 0) await this.model.updateOne({ _id: id }, { $inc: { refundsWaiting: n } }).exec();
  }

  /**
   * A commission rule write starts: the rules' stamp moves on (every process's cached rules of the
   * shop stop matching) and the write counts as in flight (shop.schema.ts `rulesVersion`).
   */
  async startRulesWrite(shopId: string, at: Date): Promise<void> {
    const id = toObjectId(shopId);
    if (id)
      await this.model
        .updateOne({ _id: id }, { $inc: { rulesVersion: 1, rulesWriting: 1 }, $set: { rulesWriteAt: at } })
        .exec();
  }

  /** The rule write ended (done or failed): the stamp moves on again, and it is no longer in flight. */
  async endRulesWrite(shopId: string): Promise<void> {
    const id = toObjectId(shopId);
    if (id) await this.model.updateOne({ _id: id }, { $inc: { rulesVersion: 1, rulesWriting: -1 } }).exec();
  }

  /** Rules were stored without the API (a seed): the stamp moves on, nothing is in flight. */
  async rulesChanged(shopId: string): Promise<void> {
    const id = toObjectId(shopId);
    if (id) await this.model.updateOne({ _id: id }, { $inc: { rulesVersion: 1 } }).exec();
  }

  /** A new key: its hash, and the next key version (tokens of the old key stop working). */
  async setApiKeyHash(domain: string, apiKeyHash: string): Promise<Shop | null> {
    return this.model
      .findOneAndUpdate({ domain }, { $set: { apiKeyHash }, $inc: { keyVersion: 1 } }, { new: true })
      .lean<Shop>()
      .exec();
  }

  /** The per-request check of a shop token: the shop's current key version (null: no such shop). */
  async keyVersion(shopId: string): Promise<number | null> {
    const id = toObjectId(shopId);
    if (!id) return null;
    const shop = await this.model
      .findOne({ _id: id }, { keyVersion: 1 })
      .lean<Pick<Shop, 'keyVersion'>>()
      .exec();
    return shop ? (shop.keyVersion ?? 0) : null;
  }

  async update(
    shopId: string,
    set: Record<string, unknown>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<Shop | null> {
    const id = toObjectId(shopId);
    if (!id) return null;
    return this.model
      .findOneAndUpdate({ _id: id }, withOutbox({ $set: set }, stamp, event), {
        new: true,
        runValidators: true,
      })
      .lean<Shop>()
      .exec();
  }

  async getPlatform(scope: ShopScope): Promise<ShopPlatformSettings | null> {
    const shop = await this.model
      .findOne({ _id: new Types.ObjectId(scope.shopId) }, { domain: 1, settings: 1, updatedAt: 1 })
      .lean<Shop>()
      .exec();
    return shop ? platformView(shop) : null;
  }

  async setPlatform(
    scope: ShopScope,
    platform: string,
    tokenEnc?: string,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<ShopPlatformSettings | null> {
    const $set: Record<string, unknown> = { 'settings.platform': platform };
    if (tokenEnc !== undefined) $set['settings.platformAccessTokenEnc'] = tokenEnc;
    const shop = await this.model
      .findOneAndUpdate({ _id: new Types.ObjectId(scope.shopId) }, withOutbox({ $set }, stamp, event), {
        new: true,
      })
      .lean<Shop>()
      .exec();
    return shop ? platformView(shop) : null;
  }
}

function platformView(shop: Shop): ShopPlatformSettings {
  return {
    _id: shop._id,
    domain: shop.domain,
    platform: shop.settings?.platform ?? 'local',
    platformAccessTokenEnc: shop.settings?.platformAccessTokenEnc ?? null,
    updatedAt: shop.updatedAt,
  };
}
