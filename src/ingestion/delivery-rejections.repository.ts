import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { WebhookDelivery } from './webhook-delivery.schema';

/**
 * Records a signed delivery refused before processing (its body does not fit its topic) as
 * `rejected`: visible in the inbox with the reason, never processed, never retried (only `failed`
 * deliveries can be), kept like failed deliveries (retention purges processed ones only).
 */
@Injectable()
export class DeliveryRejectionsRepository extends TenantRepository<WebhookDelivery> {
  constructor(@InjectModel(WebhookDelivery.name) model: Model<WebhookDelivery>) {
    super(model);
  }

  /** Null when this shop already has a delivery with that webhook id (nothing is overwritten). */
  async insertRejected(
    scope: ShopScope,
    d: Pick<WebhookDelivery, 'shopDomain' | 'topic' | 'webhookId' | 'receivedAt' | 'payload'>,
    reason: string,
  ): Promise<Types.ObjectId | null> {
    const _id = new Types.ObjectId();
    try {
      await this.model.collection.insertOne({
        _id,
        ...d,
        ...this.owner(scope),
        state: 'rejected',
        attempts: 0,
        lastError: reason,
        leaseUntil: null,
        lastAttemptAt: null,
        processedAt: null,
        processingMs: null,
        result: null,
        failedAt: d.receivedAt,
      });
      return _id;
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }
}
