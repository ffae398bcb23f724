import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import { COMMISSION_TYPES, CommissionType } from '../vendors/vendor.schema';

/**
 * Per-SKU record (spec §2.5, DESIGN §6): a commission override, a cost of goods, or both.
 * Uploads always set a commission; a record created by a line item `costOfItem` update holds only
 * `costOfGoods` (commissionType / commissionAmount null), so it never overrides the vendor's rate.
 */
@Schema({ collection: 'sku_commissions', timestamps: true })
export class SkuCommission {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  /** Trimmed, non-empty; case-sensitive as the store platform sends it. */
  @Prop({ type: String, required: true })
  sku!: string;

  @Prop({ type: String, enum: [...COMMISSION_TYPES, null], default: null })
  commissionType!: CommissionType | null;

  /** Percent value (14 means 14%) or a flat amount per item. */
  @Prop({ type: Number, default: null })
  commissionAmount!: number | null;

  /** Per unit. */
  @Prop({ type: Number, default: null })
  costOfGoods!: number | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const SkuCommissionSchema = SchemaFactory.createForClass(SkuCommission);
SkuCommissionSchema.plugin(auditOutboxPlugin);
SkuCommissionSchema.index({ shopId: 1, sku: 1 }, { unique: true });
