import { Global, Injectable, Module } from '@nestjs/common';
import { Types } from 'mongoose';
import { toLadderRule } from '../commissions/commission-rule-reads.repository';
import { CandidateRule, RuleImpact, RuleImpactEstimator } from '../commissions/rule-impact-estimator';
import type { ShopScope } from '../common/tenancy';
import { LineItemsModule } from './line-items.module';
import { RuleDryRun } from './rule-dry-run.service';

/** The commissions feature's dry-run port answered by the ladder's own computation (RuleDryRun). */
@Injectable()
export class LadderRuleImpact extends RuleImpactEstimator {
  constructor(private readonly dryRun: RuleDryRun) {
    super();
  }

  async evaluate(scope: ShopScope, candidate: CandidateRule): Promise<RuleImpact> {
    // A create takes no id: a fresh one stands in (it names no stored rule, so it replaces none).
    const rule = toLadderRule({ ...candidate, _id: candidate._id ?? new Types.ObjectId() });
    const result = await this.dryRun.evaluate(scope, rule);
    return {
      affectedLines: result.affectedLines.count,
      affectedLineSample: result.affectedLines.sample,
      payoutDelta: result.payoutDelta,
    };
  }
}

/**
 * Binds RuleImpactEstimator for the whole app. Global because CommissionsModule (which asks the port)
 * sits below line-items and cannot import it; line-items imports commissions, never the reverse.
 */
@Global()
@Module({
  imports: [LineItemsModule],
  providers: [{ provide: RuleImpactEstimator, useClass: LadderRuleImpact }],
  exports: [RuleImpactEstimator],
})
export class RuleImpactModule {}
