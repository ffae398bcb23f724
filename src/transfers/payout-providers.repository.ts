import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { systemQuery } from '../database/tenant-guard.plugin';
import { TenantRepository } from '../database/tenant-repository';
import { upsertReturningDocument } from '../database/upsert';
import { PayoutProviders } from './payout-provider.schema';

export type PayoutProvidersChanges = Partial<
  Pick<
    PayoutProviders,
    | 'mode'
    | 'currency'
    | 'stripeSecretKeyEnc'
    | 'stripeWebhookSecretEnc'
    | 'paypalClientIdEnc'
    | 'paypalClientSecretEnc'
    | 'paypalWebhookId'
  >
>;

/** The sealed fields of a shop's payout provider credentials (what `secrets:rotate` re-seals). */
export const SEALED_PROVIDER_FIELDS = [
  'stripeSecretKeyEnc',
  'stripeWebhookSecretEnc',
  'paypalClientIdEnc',
  'paypalClientSecretEnc',
] as const;
export type SealedProviderField = (typeof SEALED_PROVIDER_FIELDS)[number];
export type SealedProviderSecrets = Pick<PayoutProviders, '_id' | 'shopId' | SealedProviderField>;

@Injectable()
export class PayoutProvidersRepository extends TenantRepository<PayoutProviders> {
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(PayoutProviders.name) model: Model<PayoutProviders>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  find(scope: ShopScope): Promise<PayoutProviders | null> {
    return this.model.findOne(this.scoped(scope)).lean<PayoutProviders>().exec();
  }

  /**
   * One document per shop, created on first use with the shop's id as its own `_id`: the audit
   * trail's resource (the shop) is then the document its outbox lives in.
   */
  set(
    scope: ShopScope,
    changes: PayoutProvidersChanges,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<PayoutProviders> {
    return upsertReturningDocument(() =>
      this.model
        .findOneAndUpdate(
          this.scoped(scope, { _id: new Types.ObjectId(scope.shopId) }),
          withOutbox({ $set: { ...changes } }, stamp, event),
          {
            upsert: true,
            new: true,
            runValidators: true,
          },
        )
        .lean<PayoutProviders>()
        .exec(),
    );
  }

  /**
   * `secrets:rotate`: every shop's sealed provider secrets, one page after `after` in `_id` order
   * (the rotation's cross-shop read, served by `_id`).
   */
  secretsPage(after: Types.ObjectId | null, limit: number): Promise<SealedProviderSecrets[]> {
    const projection = Object.fromEntries([['shopId', 1], ...SEALED_PROVIDER_FIELDS.map((f) => [f, 1])]);
    return this.model
      .find(after ? { _id: { $gt: after } } : {}, projection)
      .sort({ _id: 1 })
      .limit(limit)
      .setOptions(systemQuery('secrets:rotate: payout provider secrets to re-seal'))
      .lean<SealedProviderSecrets[]>()
      .exec();
  }

  /**
   * Replaces the sealed secrets only if they are still what was read (compare-and-set): a secret
   * replaced through the API meanwhile is never overwritten with an older one. False when changed.
   */
  async replaceSecrets(
    before: SealedProviderSecrets,
    after: Pick<PayoutProviders, SealedProviderField>,
  ): Promise<boolean> {
    const was = Object.fromEntries(SEALED_PROVIDER_FIELDS.map((f) => [f, before[f] ?? null]));
    const res = await this.model
      .updateOne({ _id: before._id, shopId: before.shopId, ...was }, { $set: { ...after } })
      .setOptions(systemQuery('secrets:rotate: re-seal one shop’s payout provider secrets'))
      .exec();
    return res.modifiedCount === 1;
  }
}
