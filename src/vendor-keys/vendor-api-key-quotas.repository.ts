import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { VendorApiKeyQuota } from './vendor-api-key.schema';

/** The per-vendor live-key counter (one document per shop + vendor, unique index). */
@Injectable()
export class VendorApiKeyQuotasRepository extends TenantRepository<VendorApiKeyQuota> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(VendorApiKeyQuota.name) model: Model<VendorApiKeyQuota>) {
    super(model);
  }

  /**
   * Takes one place when fewer than `max` are taken: a single conditional `$inc`, so concurrent
   * creations can never pass the cap. The first key of a vendor creates the counter (upsert); when
   * the counter exists but is full, the upsert's insert hits the unique index: no place.
   */
  async take(scope: ShopScope, max: number): Promise<boolean> {
    const filter = this.scoped(scope, { live: { $lt: max } });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const doc = await this.model
          .findOneAndUpdate(filter, { $inc: { live: 1 } }, { upsert: attempt === 0, new: true })
          .lean()
          .exec();
        return doc !== null;
      } catch (err) {
        // Full, or two first keys raced to create the counter: once more without the upsert.
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return false;
  }

  /** Gives a place back (a revocation, or a creation withdrawn); never below zero. */
  async release(scope: ShopScope): Promise<void> {
    await this.model.updateOne(this.scoped(scope, { live: { $gt: 0 } }), { $inc: { live: -1 } }).exec();
  }
}
