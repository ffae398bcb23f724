import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope, TenantRepository } from '../common/tenancy';
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
}
