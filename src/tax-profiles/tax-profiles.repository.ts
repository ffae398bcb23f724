import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { systemQuery } from '../database/tenant-guard.plugin';
import { VendorTaxProfile } from './tax-profile.schema';

/** A profile's sealed values, as the key rotation reads them. */
export type SealedTaxProfileValues = Pick<
  VendorTaxProfile,
  '_id' | 'shopId' | 'vendorId' | 'taxIdEnc' | 'dateOfBirthEnc'
>;

/** The only repository of `vendor_tax_profiles` (one per vendor, `_id` = vendor id). */
@Injectable()
export class TaxProfilesRepository extends TenantRepository<VendorTaxProfile> {
  protected override readonly vendorField = 'vendorId';
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(VendorTaxProfile.name) model: Model<VendorTaxProfile>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  findForVendor(scope: ShopScope, vendorId: Types.ObjectId): Promise<VendorTaxProfile | null> {
    return this.model.findOne(this.scoped(scope, { vendorId })).lean<VendorTaxProfile>().exec();
  }

  /**
   * Many vendors' profiles in one read (the seller tax report: every vendor of a year at once, never
   * one query per vendor). Served by the unique `{shopId, vendorId}` index; a vendor without a
   * profile is simply absent from the answer. The audit outbox is left behind (never needed here).
   */
  findForVendors(scope: ShopScope, vendorIds: Types.ObjectId[]): Promise<VendorTaxProfile[]> {
    if (vendorIds.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { vendorId: { $in: vendorIds } }), { auditOutbox: 0 })
      .lean<VendorTaxProfile[]>()
      .exec();
  }

  /**
   * Sets the given fields, creating the profile on first use, only while the fields in `expect`
   * still hold what was read (the consent change was decided on it). Null: it changed meanwhile.
   */
  async set(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    set: Record<string, unknown>,
    expect: Record<string, unknown>,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<VendorTaxProfile | null> {
    const run = () =>
      this.model
        .findOneAndUpdate(
          this.scoped(scope, { ...expect, _id: vendorId, vendorId }),
          withOutbox({ $set: set }, stamp, event),
          {
            upsert: true,
            new: true,
            runValidators: true,
          },
        )
        .lean<VendorTaxProfile>()
        .exec();
    try {
      return await run();
    } catch (err) {
      // The profile exists but no longer matches `expect` (the upsert then tried a second one), or a
      // first write raced another: once more, and a second refusal means it did change meanwhile.
      if (!isDuplicateKeyError(err)) throw err;
    }
    try {
      return await run();
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  /** Rotation: the next profiles after `after` in id order with their sealed values (every shop). */
  secretsPage(after: Types.ObjectId | null, limit: number): Promise<SealedTaxProfileValues[]> {
    return this.model
      .find(after ? { _id: { $gt: after } } : {}, { shopId: 1, vendorId: 1, taxIdEnc: 1, dateOfBirthEnc: 1 })
      .sort({ _id: 1 })
      .limit(limit)
      .setOptions(systemQuery('secrets:rotate: vendor tax profile values to re-seal'))
      .lean<SealedTaxProfileValues[]>()
      .exec();
  }

  /** Replaces the sealed values only if they are still what was read (compare-and-set). */
  async replaceSealed(
    before: SealedTaxProfileValues,
    after: Pick<VendorTaxProfile, 'taxIdEnc' | 'dateOfBirthEnc'>,
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(
        {
          _id: before._id,
          shopId: before.shopId,
          taxIdEnc: before.taxIdEnc ?? null,
          dateOfBirthEnc: before.dateOfBirthEnc ?? null,
        },
        { $set: after },
      )
      .setOptions(systemQuery('secrets:rotate: re-seal one vendor tax profile'))
      .exec();
    return res.modifiedCount === 1;
  }
}
