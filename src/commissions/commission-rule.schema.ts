import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';

/** The rule levels of the commission ladder below the SKU record (DESIGN §13). */
export const RULE_LEVELS = ['product', 'productType'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

export const RULE_COMMISSION_TYPES = ['percentage', 'flat', 'percentage_plus_flat'] as const;
export type RuleCommissionType = (typeof RULE_COMMISSION_TYPES)[number];

/**
 * A commission rule of the ladder (DESIGN §13): SKU record > product rule > product-type rule >
 * vendor. It targets one product (`productId`, the platform's id as a decimal string) or one product
 * type (`productTypeKey`: trimmed, lowercased — how types are matched; `productType` as given), for
 * one vendor (`vendorId`) or the whole shop (null; a vendor-limited rule beats the shop-wide one).
 * It applies to a line when the order's `created_at` lies in [validFrom, validTo) (null: unbounded),
 * so a rule starting tomorrow never changes yesterday's lines. Two rules of the same level, target
 * and vendor never overlap in time (409).
 */
@Schema({ collection: 'commission_rules', timestamps: true })
export class CommissionRule {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: String, enum: RULE_LEVELS, required: true })
  level!: RuleLevel;

  /** Level `product`: the platform product id (decimal string). Null on the other level. */
  @Prop({ type: String, default: null })
  productId!: string | null;

  /** Level `productType`: the type as given. Null on the other level. */
  @Prop({ type: String, default: null })
  productType!: string | null;

  /** Level `productType`: `productType` trimmed and lowercased (the match key). Null on the other level. */
  @Prop({ type: String, default: null })
  productTypeKey!: string | null;

  /** The vendor the rule is limited to; null: every vendor of the shop. */
  @Prop({ type: Types.ObjectId, default: null })
  vendorId!: Types.ObjectId | null;

  @Prop({ type: String, enum: RULE_COMMISSION_TYPES, required: true })
  commissionType!: RuleCommissionType;

  /** Percent (12 = 12 %) for `percentage` / `percentage_plus_flat`; an amount per item for `flat`. */
  @Prop({ type: Number, required: true })
  commissionAmount!: number;

  /** `percentage_plus_flat`: the amount per item added to the percentage. Null otherwise. */
  @Prop({ type: Number, default: null })
  flatAmount!: number | null;

  /** Clamp of the line's commission (null: none). */
  @Prop({ type: Number, default: null })
  minimum!: number | null;

  @Prop({ type: Number, default: null })
  maximum!: number | null;

  /** Inclusive start (null: since always). */
  @Prop({ type: Date, default: null })
  validFrom!: Date | null;

  /** Exclusive end (null: open-ended). */
  @Prop({ type: Date, default: null })
  validTo!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const CommissionRuleSchema = SchemaFactory.createForClass(CommissionRule);
CommissionRuleSchema.plugin(auditOutboxPlugin);
// The pricing read (commission-rule-reads.repository.ts `rulesFor`): every rule of the shop for the
// products / product types of a batch of lines, in this order with `_id` last (a total order).
CommissionRuleSchema.index({ shopId: 1, level: 1, productId: 1, vendorId: 1, validFrom: 1, _id: 1 });
CommissionRuleSchema.index({ shopId: 1, level: 1, productTypeKey: 1, vendorId: 1, validFrom: 1, _id: 1 });
// The list (offset paging, newest first; commission-rules.repository.ts `page`): `level` is always in
// the filter (both levels as an `$in` when none is asked for: MongoDB merges the two sorted ranges),
// then the filters asked for, the sort, and the `activeAt` range on validFrom / validTo. One index per
// combination of equality filters, so every shape is served in index order (ESR). The last one also
// serves the overlap check's read of one group (same level, target and vendor, newest first).
const LIST_TAIL = { createdAt: -1, _id: -1, validFrom: 1, validTo: 1 } as const;
CommissionRuleSchema.index({ shopId: 1, level: 1, ...LIST_TAIL });
CommissionRuleSchema.index({ shopId: 1, level: 1, vendorId: 1, ...LIST_TAIL });
CommissionRuleSchema.index({ shopId: 1, level: 1, productTypeKey: 1, ...LIST_TAIL });
CommissionRuleSchema.index({ shopId: 1, level: 1, productTypeKey: 1, vendorId: 1, ...LIST_TAIL });
CommissionRuleSchema.index({ shopId: 1, level: 1, productId: 1, ...LIST_TAIL });
CommissionRuleSchema.index({ shopId: 1, level: 1, productId: 1, vendorId: 1, ...LIST_TAIL });
