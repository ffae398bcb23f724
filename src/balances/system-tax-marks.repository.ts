import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { systemQuery } from '../database/tenant-guard.plugin';
import { VendorBalance } from './vendor-balance.schema';

/**
 * The seller tax refresher's cross-shop read of vendor_balances (served by `{taxDirty}`): the vendors
 * whose tax quarters a tally step marked and no refresh has recomputed yet. Each shop's quarters are
 * then refreshed in that shop's scope (reports/seller-tax.processor.ts).
 */
@Injectable()
export class SystemTaxMarksRepository {
  constructor(@InjectModel(VendorBalance.name) private readonly model: Model<VendorBalance>) {}

  /** Up to `limit` marked vendors, each with its shop and the quarter keys marked. */
  marked(limit: number): Promise<Array<{ shopId: Types.ObjectId; taxDirt?: Record<string, number> }>> {
    return this.model
      .find({ taxDirty: true }, { _id: 0, shopId: 1, taxDirt: 1 })
      .limit(limit)
      .setOptions(systemQuery('seller tax refresher: marked quarters'))
      .lean<Array<{ shopId: Types.ObjectId; taxDirt?: Record<string, number> }>>()
      .exec();
  }
}
