import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { VendorApiKey } from './vendor-api-key.schema';

/** What the per-request check of a key token reads (one read by id). */
export type VendorKeyState = Pick<
  VendorApiKey,
  'vendorId' | 'scopes' | 'revokedAt' | 'vendorActive' | 'lastUsedAt'
>;

/** Vendor API keys. Vendor-owned: a scope naming a vendor narrows every query to that vendor's keys. */
@Injectable()
export class VendorApiKeysRepository extends TenantRepository<VendorApiKey> {
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of key documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(VendorApiKey.name) model: Model<VendorApiKey>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** `scope` names the vendor: the key is written as that vendor's. */
  async create(
    scope: ShopScope,
    data: Pick<
      VendorApiKey,
      '_id' | 'lookupId' | 'secretHash' | 'name' | 'scopes' | 'createdBy' | 'vendorActive'
    >,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<VendorApiKey> {
    const outbox = stamp && event ? outboxOnInsert(stamp, event) : {};
    const doc = await this.model.create({
      ...data,
      ...outbox,
      revokedAt: null,
      lastUsedAt: null,
      ...this.owner(scope),
      vendorId: new Types.ObjectId(scope.vendorId),
    });
    return doc.toObject();
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<VendorApiKey | null> {
    return this.findOneById(scope, id);
  }

  findByLookupId(scope: ShopScope, lookupId: string): Promise<VendorApiKey | null> {
    return this.model.findOne(this.scoped(scope, { lookupId })).lean<VendorApiKey>().exec();
  }

  /** The per-request check: one read by id inside the scope (shop + the token's vendor). */
  async state(scope: ShopScope, keyId: string): Promise<VendorKeyState | null> {
    const _id = toObjectId(keyId);
    if (!_id) return null;
    return this.model
      .findOne(this.scoped(scope, { _id }), {
        _id: 0,
        vendorId: 1,
        scopes: 1,
        revokedAt: 1,
        vendorActive: 1,
        lastUsedAt: 1,
      })
      .lean<VendorKeyState>()
      .exec();
  }

  /**
   * Records use, unless another request already did since the read (compare-and-set on the value
   * read, so concurrent requests write once; the caller calls it at most once per window).
   */
  async touch(scope: ShopScope, keyId: string, seen: Date | null, at: Date): Promise<void> {
    const _id = toObjectId(keyId);
    if (!_id) return;
    await this.model
      .updateOne(this.scoped(scope, { _id, lastUsedAt: seen }), { $set: { lastUsedAt: at } })
      .exec();
  }

  /** One V2 window of the vendor's keys, newest first (index shopId, vendorId, createdAt, _id). */
  page(scope: ShopScope, window: CursorWindow): Promise<CursorRows<VendorApiKey>> {
    return this.cursorPage<VendorApiKey>(scope, {}, window);
  }

  /** One v1 page of the vendor's keys, newest first (same index). */
  offsetList(
    scope: ShopScope,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: VendorApiKey[] }> {
    return this.offsetPage<VendorApiKey>(scope, {}, { createdAt: -1, _id: -1 }, page);
  }

  /**
   * Idempotent: revoking a revoked key keeps its first revocation time. `revokedNow` says whether
   * this call revoked it (only then did the audit event enter its outbox, and a place free up).
   */
  async revoke(
    scope: ShopScope,
    id: Types.ObjectId,
    at: Date,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<{ key: VendorApiKey | null; revokedNow: boolean }> {
    const revoked = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, revokedAt: null }),
        withOutbox({ $set: { revokedAt: at } }, stamp, event),
        { new: true },
      )
      .lean<VendorApiKey>()
      .exec();
    if (revoked) return { key: revoked, revokedNow: true };
    return { key: await this.findById(scope, id), revokedNow: false };
  }

  /** Withdraws a key whose creation lost a race or failed half-way (its unrelayed event goes with it). */
  async deleteById(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
  }

  /** Keeps the keys' copy of their vendor's flag in step (vendor deactivated or reactivated). */
  async setVendorActive(scope: ShopScope, active: boolean): Promise<void> {
    await this.model.updateMany(this.scoped(scope), { $set: { vendorActive: active } }).exec();
  }
}
