import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, toObjectId } from '../common/tenancy';
import { leaseFree } from '../database/lease';
import { TenantRepository } from '../database/tenant-repository';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { DeliveryState, WebhookDelivery } from './webhook-delivery.schema';

/** A delivery without its payload: what lists show. */
export type DeliverySummary = Omit<WebhookDelivery, 'payload'>;

const WITHOUT_PAYLOAD = { payload: 0 } as const;

/** The only repository of a shop's webhook deliveries (the inbox). */
@Injectable()
export class WebhookDeliveriesRepository extends TenantRepository<WebhookDelivery> {
  constructor(@InjectModel(WebhookDelivery.name) model: Model<WebhookDelivery>) {
    super(model);
  }

  /** Stores a new delivery; null when this shop already has one with that webhook id (a repeat). */
  async insert(
    scope: ShopScope,
    d: Pick<WebhookDelivery, 'shopDomain' | 'topic' | 'webhookId' | 'receivedAt' | 'payload'> &
      Partial<Pick<WebhookDelivery, 'triggeredAt'>>,
  ): Promise<Types.ObjectId | null> {
    const _id = new Types.ObjectId();
    try {
      await this.model.collection.insertOne({
        _id,
        triggeredAt: null,
        ...d,
        ...this.owner(scope),
        state: 'received',
        attempts: 0,
        lastError: null,
        leaseUntil: null,
        lastAttemptAt: null,
        processedAt: null,
        processingMs: null,
        result: null,
        failedAt: null,
      });
      return _id;
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  /**
   * Takes a `received` delivery for one processing attempt (with its payload): counts the attempt
   * and holds it until `leaseUntil`. Null when it is processed, failed, or held by a live attempt.
   */
  claim(scope: ShopScope, id: string, now: Date, leaseUntil: Date): Promise<WebhookDelivery | null> {
    const _id = toObjectId(id);
    if (!_id) return Promise.resolve(null);
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          _id,
          state: 'received',
          ...leaseFree(now),
        }),
        { $set: { leaseUntil, lastAttemptAt: now }, $inc: { attempts: 1 } },
        { new: true },
      )
      .lean<WebhookDelivery>()
      .exec();
  }

  /** Records a successful attempt; false when the delivery was no longer `received`. */
  async markProcessed(
    scope: ShopScope,
    id: Types.ObjectId,
    done: { processedAt: Date; processingMs: number; result: string },
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, state: 'received' }), {
        $set: { ...done, state: 'processed', lastError: null, leaseUntil: null },
      })
      .exec();
    return res.matchedCount === 1;
  }

  /** Records a failed attempt; `final`: no automatic attempt follows, the delivery becomes `failed`. */
  async markAttemptFailed(
    scope: ShopScope,
    id: Types.ObjectId,
    error: string,
    final: { at: Date } | null,
  ): Promise<void> {
    const $set: Record<string, unknown> = { lastError: error, leaseUntil: null };
    if (final) Object.assign($set, { state: 'failed', failedAt: final.at });
    await this.model.updateOne(this.scoped(scope, { _id: id, state: 'received' }), { $set }).exec();
  }

  /**
   * An operator retry: a `failed` delivery goes back to `received`. Null when it is not failed (or
   * unknown). The payload is not read back (and dropped, whatever the store applied).
   */
  async requeueFailed(scope: ShopScope, id: string): Promise<DeliverySummary | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    const doc = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id, state: 'failed' }),
        { $set: { state: 'received', failedAt: null, leaseUntil: null } },
        { new: true, projection: { payload: 0 } },
      )
      .lean<WebhookDelivery>()
      .exec();
    if (!doc) return null;
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { payload, ...summary } = doc;
    return summary;
  }

  findById(scope: ShopScope, id: string): Promise<WebhookDelivery | null> {
    return this.findOneById(scope, id);
  }

  /** The delivery of a webhook id, without its payload. */
  findByWebhookId(scope: ShopScope, webhookId: string): Promise<DeliverySummary | null> {
    return this.model
      .findOne(this.scoped(scope, { webhookId }), WITHOUT_PAYLOAD)
      .lean<DeliverySummary>()
      .exec();
  }

  /** One page newest first (no payloads), plus the total. */
  page(
    scope: ShopScope,
    filter: { state?: DeliveryState; topic?: string; receivedAt?: { $gte?: Date; $lte?: Date } },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: DeliverySummary[] }> {
    return this.offsetPage<DeliverySummary>(
      scope,
      filter,
      { receivedAt: -1, _id: -1 },
      page,
      WITHOUT_PAYLOAD,
    );
  }
}
