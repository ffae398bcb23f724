import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { upsertReturningDocument } from '../database/upsert';
import { PayoutMethod } from './payout-method.schema';

export type PayoutMethodFields = Pick<PayoutMethod, 'type' | 'accountId' | 'receiver' | 'recipientType'>;

@Injectable()
export class PayoutMethodsRepository extends TenantRepository<PayoutMethod> {
  protected override readonly vendorField = 'vendorId';
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(PayoutMethod.name) model: Model<PayoutMethod>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  findForVendor(scope: ShopScope, vendorId: Types.ObjectId): Promise<PayoutMethod | null> {
    return this.model.findOne(this.scoped(scope, { vendorId })).lean<PayoutMethod>().exec();
  }

  /**
   * Sets the vendor's method: one document per vendor, created on first use with the vendor's id as
   * its own `_id` (so the audit trail's resource id is the vendor id, known before the write).
   */
  set(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    fields: PayoutMethodFields,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<PayoutMethod> {
    return upsertReturningDocument(() =>
      this.model
        .findOneAndUpdate(
          this.scoped(scope, { _id: vendorId, vendorId }),
          withOutbox({ $set: { ...fields } }, stamp, event),
          {
            upsert: true,
            new: true,
            runValidators: true,
          },
        )
        .lean<PayoutMethod>()
        .exec(),
    );
  }
}
