import { Logger } from '@nestjs/common';
import type { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { Clock } from '../common/clock/clock';
import type { ShopScope } from '../common/tenancy';
import type { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { heldNet, markedAsDecided } from './batch-marking';
import type { PayoutBatch } from './payout-batch.schema';
import type { PayoutBatchesRepository } from './payout-batches.repository';

/**
 * A payout run's decision and its marking (PayoutBatchRunner, steps 2 and 3a's first half): the
 * net the batch pays, stored before anything is paid, then the adjustments it netted marked PAID
 * and checked against it, so a batch is never paid at a net nobody decided.
 */
export class BatchDecisions {
  private readonly logger = new Logger('PayoutEngine');

  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Step 2: the net of what the batch holds and the vendor's UNPAID adjustments up to the cut-off;
   * positive and at least the batch's minimum → pay, else carry forward (a positive net below the
   * minimum settles `below_minimum`). Stored before anything is paid or released, a pay decision
   * with the adjustments (and amounts) it netted.
   */
  async decide(
    scope: ShopScope,
    batch: PayoutBatch,
    id: string,
    leaseId: string,
    openingBalance: number,
  ): Promise<PayoutBatch> {
    const [held, adjustments] = await Promise.all([
      this.lineItems.heldByBatch(scope, id),
      this.adjustments.listPayable(scope, batch.vendorId, batch.cutoff),
    ]);
    const net = heldNet(held, adjustments);
    const pay = net > 0 && net >= (batch.minimumPayout ?? 0);
    const decided = await this.batches.decide(scope, batch._id, leaseId, {
      decision: pay ? 'pay' : 'carry',
      net,
      openingBalance,
      decidedAdjustments: pay ? adjustments.map((a) => ({ _id: a._id, amount: a.amount })) : null,
    });
    if (!decided || decided.leaseId !== leaseId) throw new Error('The run lost its lease while deciding');
    return decided;
  }

  /**
   * Step 3a, first half (pay): the decided adjustments marked PAID, each only at the amount decided
   * and while still within the cut-off; true when what carries the batch id nets exactly the
   * decided (positive) net. Before any row is paid, so a false answer can still be taken back; a
   * resumed run repeats it (PAID adjustments never change, so a run that got true gets it again).
   */
  async markAdjustments(
    scope: ShopScope,
    batch: PayoutBatch,
    id: string,
    decided: PayoutBatch,
  ): Promise<boolean> {
    // A decision stored before decisions named their adjustments: what is due now, as before.
    const planned =
      decided.decidedAdjustments ?? (await this.adjustments.listPayable(scope, batch.vendorId, batch.cutoff));
    await this.adjustments.markPaid(scope, planned, id, this.clock.now(), batch.cutoff);
    const [held, marked] = await Promise.all([
      this.lineItems.heldByBatch(scope, id),
      this.adjustments.paidByBatch(scope, id),
    ]);
    const net = heldNet(held, marked);
    if (net === decided.net && net > 0 && (!decided.decidedAdjustments || markedAsDecided(planned, marked)))
      return true;
    if (!held.some((li) => li.frozen)) return false;
    // Rows already paid (a run of the code before this check died after paying rows): it cannot be
    // taken back; finished as marked, and payouts:reconcile names the difference.
    this.logger.error(`payout batch ${id}: marked net ${net} differs from the decided ${decided.net}`);
    return true;
  }
}
