import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope, TenantRepository, toObjectId } from '../common/tenancy';
import { Vendor } from '../vendors/vendor.schema';

export interface VendorRef {
  _id: Types.ObjectId;
  vendorName: string;
  active: boolean;
}

/**
 * Read-only view of the shop's vendors for payouts and adjustments: id and name only. The vendors
 * module owns the records; this never writes them.
 */
@Injectable()
export class VendorDirectory extends TenantRepository<Vendor> {
  constructor(@InjectModel(Vendor.name) model: Model<Vendor>) {
    super(model);
  }

  findById(scope: ShopScope, id: string): Promise<VendorRef | null> {
    const _id = toObjectId(id);
    if (!_id) return Promise.resolve(null);
    return this.model
      .findOne(this.scoped(scope, { _id }), { vendorName: 1, active: 1 })
      .lean<VendorRef>()
      .exec();
  }

  /** Names of the given vendors, in one read. */
  async namesByIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.model
      .find(this.scoped(scope, { _id: { $in: ids } }), { vendorName: 1 })
      .lean<VendorRef[]>()
      .exec();
    return new Map(rows.map((v) => [String(v._id), v.vendorName]));
  }
}
