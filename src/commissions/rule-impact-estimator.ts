import type { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import type { RuleData } from './commission-rules.repository';

/**
 * A rule a dry run evaluates (`POST|PUT /v1/commissions/rules?dryRun=true`): the values it would
 * have, and the id of the rule it replaces (null for a create). Nothing of it is stored.
 */
export interface CandidateRule extends RuleData {
  _id: Types.ObjectId | null;
}

/** What the candidate would change over the shop's unpaid, unfrozen lines (DESIGN §13). */
export interface RuleImpact {
  affectedLines: number;
  /** The first affected lines (at most 100): their ids and payout before and after. */
  affectedLineSample: Array<{
    orderId: number;
    lineItemId: number;
    payoutBefore: number;
    payoutAfter: number;
  }>;
  /** Σ (payout with the rule − payout now), 2 dp. */
  payoutDelta: number;
}

/**
 * The port a dry run asks (an abstract class: the DI token). The ladder's own computation
 * (line-items `RuleDryRun`) answers it, bound for the whole app by line-items/rule-impact.module.ts;
 * commissions never imports it.
 */
export abstract class RuleImpactEstimator {
  abstract evaluate(scope: ShopScope, candidate: CandidateRule): Promise<RuleImpact>;
}
