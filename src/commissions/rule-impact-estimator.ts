import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import { NotImplementedError } from '../common/errors';
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
  /** Σ (payout with the rule − payout now), 2 dp. */
  payoutDelta: number;
}

/**
 * The port a dry run asks (an abstract class: the DI token). The ladder's own computation
 * (line-items, `RuleDryRun`) is bound in its place when it lands; commissions never imports it.
 */
export abstract class RuleImpactEstimator {
  abstract evaluate(scope: ShopScope, candidate: CandidateRule): Promise<RuleImpact>;
}

/** Until the ladder's dry run is wired: 501, after every validation has passed. */
@Injectable()
export class PendingRuleImpactEstimator extends RuleImpactEstimator {
  evaluate(): Promise<RuleImpact> {
    return Promise.reject(
      new NotImplementedError('The dry run of a commission rule is not available in this build yet'),
    );
  }
}
