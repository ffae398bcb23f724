import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { VendorApiKeyQuota } from './vendor-api-key.schema';

const TAKE_ATTEMPTS = 10;

/** The per-vendor live keys (one document per shop + vendor, unique index): the ids holding a place. */
@Injectable()
export class VendorApiKeyQuotasRepository extends TenantRepository<VendorApiKeyQuota> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(VendorApiKeyQuota.name) model: Model<VendorApiKeyQuota>) {
    super(model);
  }

  /**
   * Takes a place for `keyId` when fewer than `max` are taken: one conditional `$addToSet` on the
   * vendor's counter document, so concurrent creations can never pass the cap, and a repeated
   * command (a driver retry) takes no second place. The first key of a vendor creates the document
   * (upsert); when it is full the upsert's insert hits the unique index. A miss is told apart by
   * reading it: full → no place; else (a concurrent first insert not yet visible) → once more.
   */
  async take(scope: ShopScope, keyId: Types.ObjectId, max: number): Promise<boolean> {
    const roomLeft = { [`keyIds.${max - 1}`]: { $exists: false } };
    for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
      try {
        const doc = await this.model
          .findOneAndUpdate(
            this.scoped(scope, roomLeft),
            { $addToSet: { keyIds: keyId } },
            {
              upsert: true,
              new: true,
            },
          )
          .lean()
          .exec();
        if (doc) return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const quota = await this.model
        .findOne(this.scoped(scope), { keyIds: 1 })
        .lean<{ keyIds?: Types.ObjectId[] }>()
        .exec();
      const held = (quota?.keyIds ?? []).map(String);
      if (held.includes(String(keyId))) return true;
      if (held.length >= max) {
        // A store that answered a miss for a write it applied must not keep a phantom place.
        await this.release(scope, keyId);
        return false;
      }
    }
    throw new Error('Vendor API key counter: no answer after repeated attempts');
  }

  /** Gives the key's place back (a revocation, or a creation withdrawn); idempotent. */
  async release(scope: ShopScope, keyId: Types.ObjectId): Promise<void> {
    await this.model.updateOne(this.scoped(scope), { $pull: { keyIds: keyId } }).exec();
  }
}
