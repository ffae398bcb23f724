import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { StoredSecret, WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

const NEWEST = { createdAt: -1, _id: -1 } as const;

export type EndpointChanges = Partial<
  Pick<WebhookEndpoint, 'url' | 'description' | 'enabledEvents' | 'status'>
>;

/** A shop's webhook endpoints. */
@Injectable()
export class WebhookEndpointsRepository extends TenantRepository<WebhookEndpoint> {
  /** The audit outbox of endpoint documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(WebhookEndpoint.name) model: Model<WebhookEndpoint>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  count(scope: ShopScope): Promise<number> {
    return this.countWhere(scope);
  }

  /** The audit event (if any) is stored in the new document's outbox, in the same insert. */
  async create(
    scope: ShopScope,
    data: Pick<
      WebhookEndpoint,
      '_id' | 'url' | 'description' | 'enabledEvents' | 'secrets' | 'createdBy' | 'eventScope'
    >,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<WebhookEndpoint> {
    const outbox = stamp && event ? outboxOnInsert(stamp, event) : {};
    const doc = await this.model.create({ ...data, status: 'enabled', ...outbox, ...this.owner(scope) });
    return doc.toObject() as WebhookEndpoint;
  }

  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<WebhookEndpoint | null> {
    return this.findOneById(scope, id);
  }

  findMany(scope: ShopScope, ids: Types.ObjectId[]): Promise<WebhookEndpoint[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: ids.length === 1 ? ids[0] : { $in: ids } }))
      .lean<WebhookEndpoint[]>()
      .exec();
  }

  page(
    scope: ShopScope,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: WebhookEndpoint[] }> {
    return this.offsetPage(scope, {}, NEWEST, page);
  }

  /** Every endpoint of the shop (at most 16): the fan-out reads them once per write. */
  all(scope: ShopScope): Promise<WebhookEndpoint[]> {
    return this.model.find(this.scoped(scope)).sort(NEWEST).lean<WebhookEndpoint[]>().exec();
  }

  /**
   * Sets fields of the endpoint (with the write's audit event in its outbox); null when it is gone
   * or no longer matches `expect` (fields that must still hold what the caller read).
   */
  update(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Record<string, unknown>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
    expect: Record<string, unknown> = {},
  ): Promise<WebhookEndpoint | null> {
    return this.model
      .findOneAndUpdate(this.scoped(scope, { ...expect, _id: id }), withOutbox({ $set: set }, stamp, event), {
        new: true,
      })
      .lean<WebhookEndpoint>()
      .exec();
  }

  setSecrets(
    scope: ShopScope,
    id: Types.ObjectId,
    secrets: StoredSecret[],
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<WebhookEndpoint | null> {
    return this.update(scope, id, { secrets }, stamp, event);
  }

  /**
   * Claims the endpoint's next replay: sets `lastReplayAt` unless a replay happened after
   * `notAfter` (the cooldown), in one conditional write with the replay's audit event. Null when
   * the cooldown holds (or the endpoint is gone). A bookkeeping write: `updatedAt` stays.
   */
  claimReplay(
    scope: ShopScope,
    id: Types.ObjectId,
    at: Date,
    notAfter: Date,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<WebhookEndpoint | null> {
    return this.model
      .findOneAndUpdate(
        // `$not $gt` also matches an endpoint never replayed (null or absent)
        this.scoped(scope, { _id: id, lastReplayAt: { $not: { $gt: notAfter } } }),
        withOutbox({ $set: { lastReplayAt: at } }, stamp, event),
        { new: true, timestamps: false },
      )
      .lean<WebhookEndpoint>()
      .exec();
  }

  async delete(scope: ShopScope, id: Types.ObjectId): Promise<boolean> {
    return (await this.model.deleteOne(this.scoped(scope, { _id: id })).exec()).deletedCount === 1;
  }

  /** Disables an enabled endpoint; whether this call did (a concurrent one may have). */
  async disable(scope: ShopScope, id: Types.ObjectId, reason: string): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, status: 'enabled' }), {
        $set: { status: 'disabled', disabledReason: reason },
      })
      .exec();
    return res.modifiedCount === 1;
  }

  /** Dates the first failure since the last success (kept as is while it keeps failing). */
  async markFailing(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await this.model
      .updateOne(
        this.scoped(scope, { _id: id, failingSince: null }),
        { $set: { failingSince: at } },
        { timestamps: false },
      )
      .exec();
  }

  async markHealthy(scope: ShopScope, id: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(
        this.scoped(scope, { _id: id, failingSince: { $ne: null } }),
        { $set: { failingSince: null } },
        { timestamps: false },
      )
      .exec();
  }
}
