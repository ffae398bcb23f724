import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { MerchantKey } from './merchant-key.schema';

@Injectable()
export class MerchantKeysRepository extends TenantRepository<MerchantKey> {
  /** The audit outbox of key documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(MerchantKey.name) model: Model<MerchantKey>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  async create(
    scope: ShopScope,
    data: Pick<MerchantKey, '_id' | 'lookupId' | 'secretHash' | 'name'>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<MerchantKey> {
    const outbox = stamp && event ? outboxOnInsert(stamp, event) : {};
    const doc = await this.model.create({ ...data, ...outbox, ...this.owner(scope) });
    return doc.toObject();
  }

  findById(scope: ShopScope, id: string): Promise<MerchantKey | null> {
    return this.findOneById(scope, id);
  }

  /** Keys not revoked and not rotated (status `active`); index (shopId, revokedAt, expiresAt). */
  countActive(scope: ShopScope): Promise<number> {
    return this.model.countDocuments(this.scoped(scope, { revokedAt: null, expiresAt: null })).exec();
  }

  /** Rotated keys still in their grace window (status `expiring`); same index. */
  countExpiring(scope: ShopScope, now: Date): Promise<number> {
    return this.model.countDocuments(this.scoped(scope, { revokedAt: null, expiresAt: { $gt: now } })).exec();
  }

  findByLookupId(scope: ShopScope, lookupId: string): Promise<MerchantKey | null> {
    return this.model.findOne(this.scoped(scope, { lookupId })).lean<MerchantKey>().exec();
  }

  page(
    scope: ShopScope,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: MerchantKey[] }> {
    return this.offsetPage<MerchantKey>(scope, {}, { createdAt: -1, _id: -1 }, page);
  }

  /** Starts the grace window of an active key; null when it was already rotated or revoked. */
  markRotated(
    scope: ShopScope,
    id: Types.ObjectId,
    expiresAt: Date,
    replacedBy: Types.ObjectId,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<MerchantKey | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, revokedAt: null, expiresAt: null }),
        withOutbox({ $set: { expiresAt, replacedBy } }, stamp, event),
        { new: true },
      )
      .lean<MerchantKey>()
      .exec();
  }

  /**
   * Idempotent: revoking a revoked key keeps its first revocation time. `revokedNow` says whether
   * this call revoked it (only then did the audit event enter its outbox).
   */
  async revoke(
    scope: ShopScope,
    id: Types.ObjectId,
    at: Date,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<{ key: MerchantKey | null; revokedNow: boolean }> {
    const revoked = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, revokedAt: null }),
        withOutbox({ $set: { revokedAt: at } }, stamp, event),
        { new: true },
      )
      .lean<MerchantKey>()
      .exec();
    if (revoked) return { key: revoked, revokedNow: true };
    const key = await this.model
      .findOne(this.scoped(scope, { _id: id }))
      .lean<MerchantKey>()
      .exec();
    return { key, revokedNow: false };
  }

  deleteById(scope: ShopScope, id: Types.ObjectId): Promise<unknown> {
    return this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
  }
}
