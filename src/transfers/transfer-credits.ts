import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import { round2, subtractAmounts } from '../common/money';
import type { Transfer, TransferCredit } from './transfer.schema';
import { creditsBack } from './transfer-states';

/**
 * The id of a transfer's `seq`-th credit-back (DESIGN §10, issue 28). The first is the transfer's
 * own id (one credit per transfer, as a failure or a single reversal always had); later ones — a
 * further partial reversal, or a failure after a retry — are derived from the transfer id and the
 * number (12 bytes of SHA-256), so the id is fixed in the transfer's write before the adjustment
 * exists (a crash between the two is finished with the same id, never a second credit), and an id
 * a retry withdrew is never used again (a late writer can only ever touch its own credit).
 */
export function creditAdjustmentIdOf(transferId: Types.ObjectId | string, seq: number): Types.ObjectId {
  if (seq <= 1) return new Types.ObjectId(String(transferId));
  const digest = createHash('sha256')
    .update(`${String(transferId)}:credit:${seq}`)
    .digest();
  return new Types.ObjectId(digest.subarray(0, 12));
}

/** What the transfer owes back in total: its amount once failed, what was taken back once reversed. */
export function owedBack(t: Pick<Transfer, 'state' | 'amount' | 'reversedAmount'>): number {
  if (t.state === 'reversed') return t.reversedAmount ?? t.amount;
  return t.state === 'failed' ? t.amount : 0;
}

/**
 * The credit-backs the transfer owes (its ledger). A failed or reversed transfer written before the
 * ledger existed owes one credit: its own id, of what it owes.
 */
export function ledgerOf(t: Transfer): TransferCredit[] {
  if (t.credits?.length) return t.credits;
  if (!creditsBack(t.state)) return [];
  return [
    {
      adjustmentId: t._id,
      amount: owedBack(t),
      reversedTotal: t.state === 'reversed' ? owedBack(t) : null,
      at: t.reversedAt ?? t.failedAt ?? t.updatedAt,
    },
  ];
}

/** How many credit-backs were ever recorded (a transfer from before the counter counts its one). */
export function creditSeqOf(t: Transfer): number {
  if (typeof t.creditSeq === 'number') return t.creditSeq;
  return ledgerOf(t).length;
}

/**
 * The credit part of a failure's or a reversal's write: the credit counter and reversed total as
 * read (its condition; a counter never stored reads null), the counter after it, the credits it
 * records and the fields it sets.
 */
export interface CreditWrite {
  was: { creditSeq: number | null; reversedAmount: number | null };
  creditSeq: number;
  credits: TransferCredit[];
  set: Partial<Transfer>;
}

function nextCredit(t: Transfer, amount: number, reversedTotal: number | null, at: Date) {
  const seq = creditSeqOf(t) + 1;
  return {
    seq,
    credit: { adjustmentId: creditAdjustmentIdOf(t._id, seq), amount, reversedTotal, at },
    was: {
      creditSeq: typeof t.creditSeq === 'number' ? t.creditSeq : null,
      reversedAmount: t.reversedAmount ?? null,
    },
  };
}

/** A move to `failed`: one credit of the whole amount. */
export function failureCredit(t: Transfer, reason: string, at: Date): CreditWrite {
  const { seq, credit, was } = nextCredit(t, t.amount, null, at);
  return { was, creditSeq: seq, credits: [credit], set: { lastError: reason, failedAt: at } };
}

/**
 * A reversal reported at `reportedTotal` (decimal): the credit of the increase, or null when it
 * adds nothing. A transfer reversed before the ledger existed keeps its one credit in the ledger.
 */
export function reversalCredit(t: Transfer, reportedTotal: number, at: Date): CreditWrite | null {
  const step = reversalStep(t.amount, t.reversedAmount, reportedTotal);
  if (!step) return null;
  const { seq, credit, was } = nextCredit(t, step.increment, step.total, at);
  const earlier = t.credits?.length ? [] : ledgerOf(t);
  return {
    was,
    creditSeq: seq,
    credits: [...earlier, credit],
    set: { reversedAt: at, reversedAmount: step.total },
  };
}

/**
 * A reversal report (Stripe's running `amount_reversed`, as a decimal) against what is reversed
 * already: the new total (capped at the transfer amount: never more back than was sent) and the
 * increase to credit; null when it adds nothing (a redelivery, or an older event arriving late).
 */
export function reversalStep(
  amount: number,
  alreadyReversed: number | null | undefined,
  reportedTotal: number,
): { total: number; increment: number } | null {
  const total = Math.min(round2(reportedTotal), round2(amount));
  const increment = subtractAmounts(total, alreadyReversed ?? 0);
  return increment > 0 ? { total, increment } : null;
}
