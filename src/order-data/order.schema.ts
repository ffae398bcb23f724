import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';

/**
 * The order as the store platform last sent it (spec §4.9 "raw order"). `_id` is derived from
 * (shop, orderId) — see order-ids.ts — and `platformUpdatedAt` orders webhook versions: an older
 * version never replaces a newer one.
 */
@Schema({ collection: 'orders', timestamps: true })
export class Order {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Number, required: true }) orderId!: number;
  @Prop({ type: Number, default: 0 }) orderNumber!: number;
  @Prop({ type: String, default: '' }) orderName!: string;
  @Prop({ type: Date, required: true }) platformCreatedAt!: Date;
  @Prop({ type: Date, required: true }) platformUpdatedAt!: Date;

  /** The webhook payload as received (Shopify REST Admin order JSON). */
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) raw!: Record<string, unknown>;

  createdAt!: Date;
  updatedAt!: Date;
}

export const OrderSchema = SchemaFactory.createForClass(Order);
// `_id` is derived from (shop, orderId) (order-ids.ts): it is the unique key, no other index is read.
