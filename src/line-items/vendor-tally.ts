import { Types } from 'mongoose';
import type { RowTally, TallyPendingRow } from '../balances/vendor-balance.schema';
import { quarterKey } from '../common/dates/quarter';
import { toCents } from '../common/money';
import { SELLER_TAX_FIGURES } from './seller-tax-fields';

/**
 * The fields of a line item its contribution to the vendor's sums depends on, and those the seller
 * tax report sums per vendor and quarter (its summaries are refreshed for the quarters a tally step
 * saw a row of: reports/seller-tax-summaries.service.ts).
 */
export const TALLY_FIELDS = [
  'vendorId',
  'frozen',
  'inPayouts',
  'balance',
  'payout',
  'paid',
  'type',
  'orderId',
  'orderCreatedAt',
  ...SELLER_TAX_FIGURES,
] as const;

/** Whether a `$set` may change what the row contributes (its write then marks the row for the tally). */
export function touchesTally(set: Record<string, unknown>): boolean {
  return TALLY_FIELDS.some((f) => f in set);
}

export interface TallySource {
  _id: Types.ObjectId;
  vendorId?: Types.ObjectId | null;
  frozen?: boolean;
  inPayouts?: boolean;
  balance?: number;
  tally?: RowTally | null;
  tallyDirt?: number | null;
  /** The row's date (the order's creation, or the refund's): its quarter in the tax report. */
  orderCreatedAt?: Date | null;
}

export const NO_TALLY: RowTally = { v: null, k: null, c: 0 };

/**
 * What a row contributes to its vendor's balance (DESIGN §8): an unfrozen row of a vendor counts
 * its `balance` — in `due` when payable (`inPayouts`), else in `pending`; a frozen (paid) row or a
 * row without a vendor counts nothing. A row a batch has claimed but not paid still counts as due.
 */
export function tallyOf(row: TallySource): RowTally {
  if (!row.vendorId || row.frozen) return NO_TALLY;
  return { v: row.vendorId, k: row.inPayouts ? 'due' : 'pending', c: toCents(row.balance ?? 0) };
}

/**
 * `tallyOf` as an update-pipeline expression over the row's own fields, for the write-back of rows
 * unchanged since they were read (one `updateMany` instead of one statement per row). It must give
 * what `tallyOf` gives for the row as read — the same three cases, and the stored 2-decimal
 * `balance` in whole cents (exact for 2-decimal values: no half-way case to round) — which the
 * e2e suite proves by comparing every stored contribution with `tallyOf` and reconcile with the rows.
 */
export const TALLY_EXPRESSION = {
  $cond: [
    { $or: [{ $eq: [{ $ifNull: ['$vendorId', null] }, null] }, { $eq: ['$frozen', true] }] },
    { $literal: NO_TALLY },
    {
      v: '$vendorId',
      k: { $cond: [{ $eq: ['$inPayouts', true] }, 'due', 'pending'] },
      c: { $round: [{ $multiply: [{ $ifNull: ['$balance', 0] }, 100] }, 0] },
    },
  ],
} as const;

const counts = (t: RowTally | null | undefined, vendor: string) =>
  t && t.k && t.v && String(t.v) === vendor ? t : null;

/** One tally step of a vendor over its changed rows: what it adds to the sums and writes back. */
export interface TallyStep {
  dueCents: number;
  pendingCents: number;
  rows: TallyPendingRow[];
  /** Other vendors a row was counted at, or now belongs to: their tally must run too. */
  others: string[];
  /**
   * The quarters (`quarterKey`) of the rows this step counted: the vendor's seller tax summaries of
   * those quarters are marked for a refresh in the step's own write (VendorBalancesRepository.countTally).
   */
  quarters: string[];
}

/**
 * The step of vendor `vendorId` over its changed rows (pure). A row is counted where its vendor is:
 * a row that moved to another vendor is first taken out of this vendor's sums (its tally written
 * as nothing, still marked) and then counted by the other vendor's step; a row still counted at
 * another vendor is left to that vendor first. Every change is a difference between what the row
 * contributed and what it contributes now, so counting it twice is impossible once the write-back
 * lands (the run's pending list guarantees it does).
 */
export function tallyStep(vendorId: string, rows: TallySource[]): TallyStep {
  const step: TallyStep = { dueCents: 0, pendingCents: 0, rows: [], others: [], quarters: [] };
  const others = new Set<string>();
  const quarters = new Set<string>();
  const add = (t: RowTally | null, sign: 1 | -1) => {
    if (!t?.k) return;
    if (t.k === 'due') step.dueCents += sign * t.c;
    else step.pendingCents += sign * t.c;
  };
  for (const r of rows) {
    const old = r.tally ?? null;
    if (old?.k && old.v && String(old.v) !== vendorId) {
      others.add(String(old.v)); // counted elsewhere: that vendor takes it out first
      continue;
    }
    const now = tallyOf(r);
    const mine = now.v && String(now.v) === vendorId;
    if (now.v && !mine) others.add(String(now.v));
    const next = mine ? now : NO_TALLY;
    add(counts(old, vendorId), -1);
    add(counts(next, vendorId), 1);
    // A row that now belongs to another vendor stays marked for that vendor's step.
    step.rows.push({ _id: r._id, tally: next, dirt: r.tallyDirt ?? null, keep: Boolean(now.v && !mine) });
    if (r.orderCreatedAt) quarters.add(quarterKey(new Date(r.orderCreatedAt)));
  }
  step.others = [...others];
  step.quarters = [...quarters].sort();
  return step;
}
