import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { SkuCommission } from '../commissions/sku-commission.schema';
import { ShopScope, toObjectId } from '../common/tenancy';
import { chunkedBulkWrite } from '../database/bulk-write';
import { CommissionType, Vendor } from '../vendors/vendor.schema';
import { BULK_CHUNK, isDuplicateKey } from './line-items.repository';

export interface VendorTerms {
  _id: Types.ObjectId;
  vendorName: string;
  commissionType: CommissionType;
  commissionAmount: number;
}

export interface SkuTerms {
  sku: string;
  commissionType: CommissionType | null;
  commissionAmount: number | null;
  costOfGoods: number | null;
}

const VENDOR_FIELDS = { vendorName: 1, commissionType: 1, commissionAmount: 1 } as const;
const SKU_FIELDS = { sku: 1, commissionType: 1, commissionAmount: 1, costOfGoods: 1 } as const;

/**
 * What the money calculation reads besides the line item: vendors (by lowercased name or id) and
 * SKU records, always in batches. Vendors and SKU records are owned by the vendors/commissions
 * feature; this repository only reads them, and upserts a SKU record's cost of goods when a line
 * item's `costOfItem` is written (spec §4.2 rule 3, DESIGN §6).
 */
@Injectable()
export class PricingInputsRepository {
  constructor(
    @InjectModel(Vendor.name) private readonly vendors: Model<Vendor>,
    @InjectModel(SkuCommission.name) private readonly skus: Model<SkuCommission>,
  ) {}

  private shop(scope: ShopScope): Types.ObjectId {
    return new Types.ObjectId(scope.shopId);
  }

  vendorsByNames(scope: ShopScope, names: string[]): Promise<VendorTerms[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.vendors
      .find({ vendorName: { $in: names }, shopId: this.shop(scope) }, VENDOR_FIELDS)
      .lean<VendorTerms[]>()
      .exec();
  }

  vendorsByIds(scope: ShopScope, ids: Array<string | Types.ObjectId>): Promise<VendorTerms[]> {
    const oids = ids.map((id) => (typeof id === 'string' ? toObjectId(id) : id)).filter((x) => !!x);
    if (oids.length === 0) return Promise.resolve([]);
    return this.vendors
      .find({ _id: { $in: oids }, shopId: this.shop(scope) }, VENDOR_FIELDS)
      .lean<VendorTerms[]>()
      .exec();
  }

  async vendorById(scope: ShopScope, id: string): Promise<VendorTerms | null> {
    const [v] = await this.vendorsByIds(scope, [id]);
    return v ?? null;
  }

  skusByCodes(scope: ShopScope, codes: string[]): Promise<SkuTerms[]> {
    if (codes.length === 0) return Promise.resolve([]);
    return this.skus
      .find({ sku: { $in: codes }, shopId: this.shop(scope) }, SKU_FIELDS)
      .lean<SkuTerms[]>()
      .exec();
  }

  /**
   * Sets the per-unit cost of goods of each SKU. A record created here holds only the cost:
   * commissionType / commissionAmount are null, so it never overrides the vendor's rate. Missing
   * records are inserted with explicit nulls (not an upsert's $setOnInsert, whose nulls FerretDB
   * drops); one read, one insert and one bulk update however many SKUs.
   */
  async setCostOfGoods(
    scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
  ): Promise<void> {
    if (entries.length === 0) return;
    const existing = new Set(
      (
        await this.skusByCodes(
          scope,
          entries.map((e) => e.sku),
        )
      ).map((s) => s.sku),
    );
    const toUpdate = entries.filter((e) => existing.has(e.sku));
    const missing = entries.filter((e) => !existing.has(e.sku));
    if (missing.length > 0) {
      try {
        await this.skus.insertMany(
          missing.map((e) => ({
            sku: e.sku,
            costOfGoods: e.costOfGoods,
            commissionType: null,
            commissionAmount: null,
            shopId: this.shop(scope),
          })),
          { ordered: false },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        toUpdate.push(...missing); // created concurrently: set the cost on what is there now
      }
    }
    if (toUpdate.length === 0) return;
    // updateMany on the unique (shopId, sku): FerretDB deadlocks on 100+ matched updateOne in one command.
    const ops = toUpdate.map((e) => ({
      updateMany: {
        filter: { sku: e.sku, shopId: this.shop(scope) },
        update: { $set: { costOfGoods: e.costOfGoods } },
      },
    }));
    await chunkedBulkWrite(this.skus, ops, BULK_CHUNK);
  }

  /**
   * Demo data (seed:demo) and test fixtures only: a vendor with this name, created when missing.
   * The API creates vendors through the vendors feature (POST /v1/vendors).
   */
  async seedVendor(
    scope: ShopScope,
    v: { vendorName: string; commissionType: CommissionType; commissionAmount: number },
  ): Promise<VendorTerms> {
    const vendorName = v.vendorName.trim().toLowerCase();
    return this.vendors
      .findOneAndUpdate(
        { vendorName, shopId: this.shop(scope) },
        { $setOnInsert: { commissionType: v.commissionType, commissionAmount: v.commissionAmount } },
        { upsert: true, new: true },
      )
      .lean<VendorTerms>()
      .exec() as Promise<VendorTerms>;
  }

  /** Demo data (seed:demo) and test fixtures only: a SKU commission record as an upload would write it. */
  async seedSkuCommission(
    scope: ShopScope,
    s: { sku: string; commissionType: CommissionType; commissionAmount: number; costOfGoods?: number | null },
  ): Promise<void> {
    await this.skus
      .updateOne(
        { sku: s.sku.trim(), shopId: this.shop(scope) },
        {
          $set: {
            commissionType: s.commissionType,
            commissionAmount: s.commissionAmount,
            ...(s.costOfGoods !== undefined ? { costOfGoods: s.costOfGoods } : {}),
          },
        },
        { upsert: true },
      )
      .exec();
  }
}
