import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { productTypeKeyOf } from '../common/money';
import { systemQuery } from '../database/tenant-guard.plugin';
import { Product } from './product.schema';

const TYPE_KEY_SCAN =
  'products:type-keys backfill: every shop, by _id, the products stored without productTypeKey';

/** A product the backfill set the key on: its shop, its platform id and the key (null: no type). */
export interface KeyedProduct {
  shopId: string;
  productId: string;
  productTypeKey: string | null;
}

export interface TypeKeyBatch {
  scanned: number;
  /** The last `_id` scanned: the next batch starts after it; null when the collection is done. */
  lastId: Types.ObjectId | null;
  /** How many products this batch changed (a concurrent run or an ingestion may have been first). */
  updated: number;
  /** The products found without the key, with the key set on them. */
  keyed: KeyedProduct[];
}

type ScannedProduct = Pick<Product, '_id' | 'shopId' | 'productId' | 'productType'> & {
  productTypeKey?: string | null;
};

/**
 * The products module's only opt-out of the tenant guard: the operator backfill of `productTypeKey`
 * over every shop (products stored before the commission ladder have none, so no product-type rule
 * reaches them). Scans by `_id` (the `_id` index, no sort in memory), writes only what still lacks
 * the key: idempotent and resumable.
 */
@Injectable()
export class SystemProductsRepository {
  constructor(@InjectModel(Product.name) private readonly products: Model<Product>) {}

  /** One batch of up to `limit` products after `after` by `_id`; one bulkWrite for those without the key. */
  async backfillTypeKeys(after: Types.ObjectId | null, limit: number): Promise<TypeKeyBatch> {
    const rows = await this.products
      .find(after ? { _id: { $gt: after } } : {}, {
        _id: 1,
        shopId: 1,
        productId: 1,
        productType: 1,
        productTypeKey: 1,
      })
      .sort({ _id: 1 })
      .limit(limit)
      .setOptions(systemQuery(TYPE_KEY_SCAN))
      .lean<ScannedProduct[]>()
      .exec();
    const missing = rows.filter((r) => r.productTypeKey === undefined);
    let updated = 0;
    if (missing.length > 0) {
      // bulkWrite is not a mongoose query (no tenant guard): each filter names its shop anyway.
      const res = await this.products.bulkWrite(
        missing.map((r) => ({
          updateOne: {
            filter: { _id: r._id, shopId: r.shopId, productTypeKey: { $exists: false } },
            update: { $set: { productTypeKey: productTypeKeyOf(r.productType) } },
          },
        })),
        { ordered: false },
      );
      updated = res.modifiedCount;
    }
    return {
      scanned: rows.length,
      lastId: rows.length === limit ? rows[rows.length - 1]._id : null,
      updated,
      keyed: missing.map((r) => ({
        shopId: String(r.shopId),
        productId: r.productId,
        productTypeKey: productTypeKeyOf(r.productType),
      })),
    };
  }
}
