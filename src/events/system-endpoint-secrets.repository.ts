import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { StoredSecret, WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

/** One endpoint's sealed signing secrets, as `secrets:rotate` reads them. */
export type SealedEndpointSecrets = Pick<WebhookEndpoint, '_id' | 'shopId' | 'secrets' | 'updatedAt'>;

/**
 * `secrets:rotate`, the webhook endpoints part: the cross-shop read of every endpoint's sealed
 * signing secrets (paged by `_id`, served by the `_id` index) and the compare-and-set write that
 * re-seals one endpoint. The only opt-out of the tenant guard on `webhook_endpoints`.
 */
@Injectable()
export class SystemEndpointSecretsRepository {
  constructor(@InjectModel(WebhookEndpoint.name) private readonly model: Model<WebhookEndpoint>) {}

  secretsPage(after: Types.ObjectId | null, limit: number): Promise<SealedEndpointSecrets[]> {
    return this.model
      .find(after ? { _id: { $gt: after } } : {}, { shopId: 1, secrets: 1, updatedAt: 1 })
      .sort({ _id: 1 })
      .limit(limit)
      .setOptions(systemQuery('secrets:rotate: webhook endpoint signing secrets to re-seal'))
      .lean<SealedEndpointSecrets[]>()
      .exec();
  }

  /**
   * Replaces the sealed secrets only if the endpoint is unchanged since it was read (its
   * `updatedAt`, which every API write moves): a secret rotated through the API meanwhile is never
   * overwritten with the older list. Leaves `updatedAt` as it was (nothing the shop sees changed).
   * False when changed (run the command again).
   */
  async replaceSecrets(before: SealedEndpointSecrets, secrets: StoredSecret[]): Promise<boolean> {
    const res = await this.model
      .updateOne(
        { _id: before._id, shopId: before.shopId, updatedAt: before.updatedAt },
        { $set: { secrets } },
        { timestamps: false },
      )
      .setOptions(systemQuery('secrets:rotate: re-seal one webhook endpoint’s signing secrets'))
      .exec();
    return res.modifiedCount === 1;
  }
}
