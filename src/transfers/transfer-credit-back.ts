import { Logger } from '@nestjs/common';
import type { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { Clock } from '../common/clock/clock';
import type { ShopScope } from '../common/tenancy';
import type { Transfer, TransferCredit } from './transfer.schema';
import { ledgerOf } from './transfer-credits';
import { creditsBack } from './transfer-states';
import type { TransfersRepository } from './transfers.repository';

/**
 * Makes the credit-backs a transfer recorded (DESIGN §10, issue 28) — no transactions, two
 * collections, so in an order a concurrent retry cannot slip between:
 *
 * 1. every credit of the ledger is written as a system ADDITION, *held* (no batch can pay it);
 * 2. the transfer is read again: a credit it still owes (failed or reversed, that credit in its
 *    ledger, no retry holding it) is released — dated, payable; one it no longer owes (a retry
 *    took the transfer meanwhile) is withdrawn;
 * 3. the marker `creditAdjustmentId` is set, conditional on the transfer as read in 2.
 *
 * A retry holds the transfer before it withdraws the credits and moves it, so its withdrawal
 * always comes after step 2's read: it finds the credit held (deletes it) or released (deletes it,
 * or finds it paid by a batch and refuses — the vendor got the money once either way). A crash
 * anywhere leaves the marker null and the transfer sweeper runs this again: the ids are fixed in
 * the ledger, so nothing is credited twice or short.
 */
export class TransferCreditBack {
  private readonly logger = new Logger('Transfers');

  constructor(
    private readonly transfers: TransfersRepository,
    private readonly adjustments: Pick<
      PayoutAdjustmentsService,
      'createSystemAddition' | 'releaseSystemAddition' | 'withdrawSystemAddition'
    >,
    private readonly clock: Clock,
  ) {}

  /** Runs the three steps for the transfer as read (again for a newer version found in step 2). */
  async settle(scope: ShopScope, start: Transfer): Promise<Transfer> {
    let t = start;
    for (let round = 0; round < 3; round++) {
      if (!creditsBack(t.state) || this.held(t)) return t;
      const ledger = ledgerOf(t);
      for (const c of ledger) await this.write(scope, t, c);
      const now = await this.transfers.findById(scope, t._id);
      const owes = now && creditsBack(now.state) && !this.held(now) ? ledgerOf(now) : [];
      const owed = new Set(owes.map((c) => String(c.adjustmentId)));
      for (const c of ledger) {
        if (owed.has(String(c.adjustmentId)))
          await this.adjustments.releaseSystemAddition(scope, c.adjustmentId, c.at);
        else await this.adjustments.withdrawSystemAddition(scope, c.adjustmentId);
      }
      if (!now || !owes.length) return now ?? t;
      const written = new Set(ledger.map((c) => String(c.adjustmentId)));
      if (owes.every((c) => written.has(String(c.adjustmentId)))) {
        const last = owes[owes.length - 1].adjustmentId;
        const marked = await this.transfers.markCredited(scope, now, last, this.clock.now());
        this.logger.log(
          { transferId: String(t._id), credits: owes.length, marked: !!marked },
          'Transfer credited back',
        );
        return marked ?? now;
      }
      t = now; // a newer credit was recorded meanwhile: make that version's too
    }
    return t;
  }

  private write(scope: ShopScope, t: Transfer, c: TransferCredit) {
    const why = c.reversedTotal !== null ? `was reversed (${c.reversedTotal} in total)` : 'failed';
    return this.adjustments.createSystemAddition(scope, {
      id: c.adjustmentId,
      vendorId: t.vendorId,
      amount: c.amount,
      comments: `Credit back: transfer ${String(t._id)} of payout batch ${String(t.batchId)} ${why}`,
      held: true,
    });
  }

  /** A retry holds it (its lease): the retry decides what the vendor is owed. */
  private held(t: Transfer): boolean {
    return !!t.leaseUntil && new Date(t.leaseUntil).getTime() > this.clock.now().getTime();
  }
}
