import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** The platform's product statuses (Shopify REST `status`). */
export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

@Schema({ _id: false })
export class ProductVariant {
  /** Store-platform ids are 64-bit: kept as decimal strings, every digit (DESIGN §7). */
  @Prop({ type: String, default: null }) id!: string | null;
  @Prop({ type: String, default: null }) title!: string | null;
  @Prop({ type: String, default: null }) sku!: string | null;
  @Prop({ type: Number, default: 0 }) price!: number;
  @Prop({ type: Number, default: 0 }) inventoryQuantity!: number;
  @Prop({ type: Boolean, default: true }) requiresShipping!: boolean;
}
export const ProductVariantSchema = SchemaFactory.createForClass(ProductVariant);

@Schema({ _id: false })
export class ProductImage {
  @Prop({ type: String, default: null }) id!: string | null;
  @Prop({ type: String, default: null }) src!: string | null;
  @Prop({ type: String, default: null }) alt!: string | null;
  @Prop({ type: Number, default: null }) position!: number | null;
}
export const ProductImageSchema = SchemaFactory.createForClass(ProductImage);

/**
 * A product as the store platform last sent it (spec §2.6). `_id` is derived from (shop, productId);
 * `platformUpdatedAt` orders versions; a products/delete leaves a tombstone (`deletedAt`) so a late,
 * older create/update cannot bring the product back.
 */
@Schema({ collection: 'products', timestamps: true })
export class Product {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  /** The platform's 64-bit product id as a decimal string (every digit; `JSON.parse` would round it). */
  @Prop({ type: String, required: true }) productId!: string;
  @Prop({ type: String, default: '' }) title!: string;
  @Prop({ type: String, default: '' }) handle!: string;
  @Prop({ type: String, default: '' }) productType!: string;
  /** `productType` trimmed and lowercased: how commission rules match types (DESIGN §13); null: none. */
  @Prop({ type: String, default: null }) productTypeKey!: string | null;
  /** The vendor field as sent. */
  @Prop({ type: String, default: '' }) vendor!: string;
  /** `vendor` trimmed and lowercased: how products are matched to vendors. */
  @Prop({ type: String, default: null }) vendorName!: string | null;
  @Prop({ type: String, default: 'active' }) status!: string;
  @Prop({ type: Number, default: 0 }) totalInventory!: number;
  @Prop({ type: Boolean, default: false }) isDigital!: boolean;
  @Prop({ type: [ProductVariantSchema], default: [] }) variants!: ProductVariant[];
  @Prop({ type: [ProductImageSchema], default: [] }) images!: ProductImage[];
  @Prop({ type: [String], default: [] }) tags!: string[];
  @Prop({ type: Date, required: true }) platformCreatedAt!: Date;
  @Prop({ type: Date, required: true }) platformUpdatedAt!: Date;
  @Prop({ type: Date, default: null }) deletedAt!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const ProductSchema = SchemaFactory.createForClass(Product);
// `_id` is derived from (shop, productId): it is the unique key. The lists (v1 and V2), newest
// first, without and with a status filter; the V2 title search is a case-insensitive regex on the
// trailing `title` key, tested on index keys after the sort (ESR: the range after the sort).
const NEWEST_THEN_TITLE = { platformCreatedAt: -1, _id: -1, title: 1 } as const;
ProductSchema.index({ shopId: 1, deletedAt: 1, ...NEWEST_THEN_TITLE });
ProductSchema.index({ shopId: 1, vendorName: 1, deletedAt: 1, ...NEWEST_THEN_TITLE });
ProductSchema.index({ shopId: 1, deletedAt: 1, status: 1, ...NEWEST_THEN_TITLE });
ProductSchema.index({ shopId: 1, vendorName: 1, deletedAt: 1, status: 1, ...NEWEST_THEN_TITLE });
// The products of a type (a product-type rule's dry-run).
ProductSchema.index({ shopId: 1, productTypeKey: 1, _id: 1 });
