import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';

import { ShopScope } from '../common/tenancy';
import { systemQuery } from '../database/tenant-guard.plugin';
import { TenantRepository } from '../database/tenant-repository';
import { IdempotencyRecord, OBSOLETE_IDEMPOTENCY_INDEX } from './idempotency-record.schema';

/** Whose key it is: the exact credential (`actorOf` of the caller). */
export interface IdempotencyOwner {
  kind: 'shop' | 'merchant' | 'vendor';
  id: string;
}

/** A stored answer as `secrets:rotate` reads it (what its seal's context is made of, and the seal). */
export type LiveAnswer = Pick<
  IdempotencyRecord,
  '_id' | 'shopId' | 'credentialKind' | 'credentialId' | 'key' | 'body'
>;

export interface Claim {
  fingerprint: string;
  lockId: string;
  lockedUntil: Date;
  createdAt: Date;
  expiresAt: Date;
}

@Injectable()
export class IdempotencyRepository extends TenantRepository<IdempotencyRecord> implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');

  constructor(@InjectModel(IdempotencyRecord.name) model: Model<IdempotencyRecord>) {
    super(model);
  }

  /** Drops the per-kind unique index of older versions, if present (autoIndex never drops one). */
  async onModuleInit(): Promise<void> {
    try {
      const names = (await this.model.collection.indexes()).map((i) => i.name);
      if (names.includes(OBSOLETE_IDEMPOTENCY_INDEX))
        await this.model.collection.dropIndex(OBSOLETE_IDEMPOTENCY_INDEX);
    } catch (err) {
      // No collection yet, or another process dropped it first.
      this.logger.debug({ err: (err as Error)?.message }, 'Obsolete idempotency index not dropped');
    }
  }

  /** Inserts the key `in_progress`; throws the driver's duplicate-key error when it exists. */
  async insert(
    scope: ShopScope,
    owner: IdempotencyOwner,
    key: string,
    claim: Claim,
  ): Promise<Types.ObjectId> {
    const _id = new Types.ObjectId();
    await this.model.collection.insertOne({
      _id,
      ...this.owner(scope),
      credentialKind: owner.kind,
      credentialId: owner.id,
      key,
      ...claim,
      state: 'in_progress',
      status: null,
      body: null,
    });
    return _id;
  }

  find(scope: ShopScope, owner: IdempotencyOwner, key: string): Promise<IdempotencyRecord | null> {
    return this.model
      .findOne(this.scoped(scope, { credentialKind: owner.kind, credentialId: owner.id, key }))
      .lean<IdempotencyRecord>()
      .exec();
  }

  /**
   * Claims a record again (expired, or its claim lapsed): only while it is still exactly as read
   * (same claim, same expiry), so two retries cannot both take it over.
   */
  async takeOver(scope: ShopScope, seen: IdempotencyRecord, claim: Claim): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: seen._id, lockId: seen.lockId, expiresAt: seen.expiresAt }), {
        $set: { ...claim, state: 'in_progress', status: null, body: null },
      })
      .exec();
    return res.matchedCount === 1;
  }

  /** Stores the answer while this request still holds the claim. */
  async complete(
    scope: ShopScope,
    id: Types.ObjectId,
    lockId: string,
    answer: { status: number; body: string },
  ): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, lockId }), {
        $set: {
          state: 'completed',
          status: answer.status,
          body: answer.body,
          lockId: null,
          lockedUntil: null,
        },
      })
      .exec();
  }

  /** Forgets the key (a 5xx answer): a retry runs the request again. */
  async release(scope: ShopScope, id: Types.ObjectId, lockId: string): Promise<void> {
    await this.model.deleteOne(this.scoped(scope, { _id: id, lockId })).exec();
  }
}

/** Cross-shop retention of idempotency records (the only opt-out of the tenant guard for them). */
@Injectable()
export class SystemIdempotencyRepository {
  constructor(@InjectModel(IdempotencyRecord.name) private readonly model: Model<IdempotencyRecord>) {}

  async purgeExpired(before: Date): Promise<number> {
    const res = await this.model
      .deleteMany({ expiresAt: { $lt: before } })
      .setOptions(systemQuery('idempotency retention: purge keys past their 24 h'))
      .exec();
    return res.deletedCount;
  }

  /**
   * `secrets:rotate`: every shop's records still inside their 24 h (a stored answer may be among
   * them), streamed in expiry order: a range on the `expiresAt` index.
   */
  liveAnswers(now: Date): AsyncIterable<LiveAnswer> {
    return this.model
      .find({ expiresAt: { $gt: now } }, { shopId: 1, credentialKind: 1, credentialId: 1, key: 1, body: 1 })
      .sort({ expiresAt: 1 })
      .setOptions(systemQuery('secrets:rotate: stored idempotent answers to re-seal'))
      .lean<LiveAnswer>()
      .cursor();
  }

  /** Replaces a stored answer only if it is still the one read (compare-and-set); false when changed. */
  async replaceAnswer(before: LiveAnswer, body: string): Promise<boolean> {
    const res = await this.model
      .updateOne({ _id: before._id, shopId: before.shopId, body: before.body }, { $set: { body } })
      .setOptions(systemQuery('secrets:rotate: re-seal one stored idempotent answer'))
      .exec();
    return res.modifiedCount === 1;
  }
}
