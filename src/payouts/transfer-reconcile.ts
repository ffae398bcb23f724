import type { PayoutAdjustment } from '../adjustments/payout-adjustment.schema';
import { subtractAmounts, sumAmounts } from '../common/money';
import type { Transfer } from '../transfers/transfer.schema';
import { ledgerOf, owedBack } from '../transfers/transfer-credits';
import type { PayoutBatch } from './payout-batch.schema';

/** What reconcile says about a vendor's transfers (DESIGN §10). */
export interface TransferReconciliation {
  /** Σ of the batches' transfers as sent (one per completed batch, its total). */
  transferred: number;
  /** Σ of what failed or reversed transfers gave back: credited to the vendor as ADDITIONs (several per transfer after partial reversals). */
  creditedBack: number;
  /** Of creditedBack: what a later batch has paid again (the credit-back adjustments that are PAID). */
  creditPaid: number;
  /**
   * What reached (or is on its way to) the vendor: transferred − creditedBack. Equal to the
   * batches' Σ minus every credit-back, i.e. Σ of what the vendor earned that batches settled
   * (a credit paid by the next batch is the same money, sent again, not earned twice).
   */
  delivered: number;
  differences: string[];
}

/**
 * A failed transfer is credited back as an ADDITION (its `_id` recorded in the transfer's credits:
 * the transfer id for the first; a reversed one has one per partial reversal), and the next
 * batch pays it: Σ paid by batches then counts that money twice (once per batch that paid it),
 * which is right for the batches, while the vendor received it once. This proves the transfer
 * side: every completed batch handed over has a transfer of its total, and every failed or
 * reversed transfer has its credit-back (ADDITION, the failed amount or the reversed part).
 * A batch still `transferDue` (hand-over not done yet) and batches settled before the rails were
 * wired (no `transferDue` field) are not expected to have one yet.
 */
export function reconcileTransfers(
  batches: PayoutBatch[],
  transfers: Transfer[],
  adjustments: PayoutAdjustment[],
): TransferReconciliation {
  const differences: string[] = [];
  const byBatch = new Map(transfers.map((t) => [String(t.batchId), t]));
  const adjustmentById = new Map(adjustments.map((a) => [String(a._id), a]));
  for (const b of batches) {
    if (b.status !== 'completed' || !(b.total > 0)) {
      if (byBatch.has(String(b._id))) differences.push(`batch ${String(b._id)} (${b.status}) has a transfer`);
      continue;
    }
    const t = byBatch.get(String(b._id));
    if (!t) {
      if (b.transferDue === false) differences.push(`completed batch ${String(b._id)} has no transfer`);
      continue;
    }
    if (t.amount !== b.total) {
      differences.push(`batch ${String(b._id)} paid ${b.total} but its transfer sends ${t.amount}`);
    }
  }
  const credits: number[] = [];
  const creditsPaid: number[] = [];
  for (const t of transfers) {
    if (t.state !== 'failed' && t.state !== 'reversed') continue;
    const owed = owedBack(t);
    const ledger = ledgerOf(t);
    const recorded = sumAmounts(ledger.map((c) => c.amount));
    if (recorded !== owed) {
      differences.push(
        `${t.state} transfer ${String(t._id)} owes ${owed} but records credits of ${recorded}`,
      );
    }
    for (const c of ledger) {
      const credit = adjustmentById.get(String(c.adjustmentId));
      if (!credit) {
        differences.push(
          `${t.state} transfer ${String(t._id)} of ${owed} is not credited back` +
            (ledger.length > 1 ? ` (${c.amount} as ${String(c.adjustmentId)})` : ''),
        );
        continue;
      }
      if (credit.type !== 'ADDITION' || credit.amount !== c.amount) {
        differences.push(
          `credit-back ${String(credit._id)} is ${credit.type} ${credit.amount}, the ${t.state} transfer owes ${c.amount}`,
        );
      }
      credits.push(credit.amount);
      if (credit.status === 'PAID') creditsPaid.push(credit.amount);
    }
  }
  const transferred = sumAmounts(transfers.map((t) => t.amount));
  const creditedBack = sumAmounts(credits);
  return {
    transferred,
    creditedBack,
    creditPaid: sumAmounts(creditsPaid),
    delivered: subtractAmounts(transferred, creditedBack),
    differences,
  };
}
