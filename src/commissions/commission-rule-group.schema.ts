import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** A write in flight on a group: the interval a rule is being given (DESIGN §13, no transactions). */
@Schema({ _id: false })
export class RuleClaim {
  @Prop({ type: Types.ObjectId, required: true })
  ruleId!: Types.ObjectId;

  @Prop({ type: Date, default: null })
  validFrom!: Date | null;

  @Prop({ type: Date, default: null })
  validTo!: Date | null;

  /** When the claim was made: a claim older than CLAIM_TTL_MS belongs to a write that died. */
  @Prop({ type: Date, required: true })
  at!: Date;
}
const RuleClaimSchema = SchemaFactory.createForClass(RuleClaim);

/**
 * The serialisation point of one group of commission rules: the rules of one shop, level, target and
 * vendor (null: the shop-wide rule is its own group), which must never overlap in time. Creating or
 * replacing a rule of the group reads this document (its `version`), reads the group's rules, checks
 * the new interval against them and against `claims` (writes of others not visible yet), and then
 * moves the version on by one in a single conditional update that adds its own claim. Two writers
 * that read the same version cannot both succeed: the second update matches nothing and its writer
 * starts over, now seeing the first one's claim. The rule itself is written after the claim; a claim
 * whose write died blocks its interval for CLAIM_TTL_MS at most.
 */
@Schema({ collection: 'commission_rule_groups', timestamps: false, versionKey: false })
export class CommissionRuleGroup {
  /** `<shopId>:<level>:<target>:<vendorId | *>` (commission-rule-groups.ts `groupKey`). */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Number, required: true })
  version!: number;

  @Prop({ type: [RuleClaimSchema], default: [] })
  claims!: RuleClaim[];
}

export const CommissionRuleGroupSchema = SchemaFactory.createForClass(CommissionRuleGroup);
// Reads and writes address one group by `_id` (with shopId, for the tenant guard): a unique point lookup.
