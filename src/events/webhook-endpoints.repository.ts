import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { StoredSecret, WebhookEndpoint } from './webhook-endpoint.schema';
import type { UnionPart } from '../database/read-together';

const NEWEST = { createdAt: -1, _id: -1 } as const;

export type EndpointChanges = Partial<
  Pick<WebhookEndpoint, 'url' | 'description' | 'enabledEvents' | 'status'>
>;

/** A shop's webhook endpoints. */
@Injectable()
export class WebhookEndpointsRepository extends TenantRepository<WebhookEndpoint> {
  constructor(@InjectModel(WebhookEndpoint.name) model: Model<WebhookEndpoint>) {
    super(model);
  }

  count(scope: ShopScope): Promise<number> {
    return this.countWhere(scope);
  }

  async create(
    scope: ShopScope,
    data: Pick<WebhookEndpoint, '_id' | 'url' | 'description' | 'enabledEvents' | 'secrets'>,
  ): Promise<WebhookEndpoint> {
    const doc = await this.model.create({ ...data, status: 'enabled', ...this.owner(scope) });
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

  /** The same endpoints as `all`, as a part of a combined read (database/read-together.ts). */
  allPart(tag: string, scope: ShopScope): UnionPart {
    return this.readPart(tag, scope, {}, undefined, NEWEST);
  }

  update(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Record<string, unknown>,
  ): Promise<WebhookEndpoint | null> {
    return this.model
      .findOneAndUpdate(this.scoped(scope, { _id: id }), { $set: set }, { new: true })
      .lean<WebhookEndpoint>()
      .exec();
  }

  setSecrets(scope: ShopScope, id: Types.ObjectId, secrets: StoredSecret[]): Promise<WebhookEndpoint | null> {
    return this.update(scope, id, { secrets });
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
