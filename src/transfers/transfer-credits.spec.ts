import { Types } from 'mongoose';
import type { Transfer } from './transfer.schema';
import {
  creditAdjustmentIdOf,
  creditSeqOf,
  failureCredit,
  ledgerOf,
  reversalCredit,
  reversalStep,
} from './transfer-credits';

/** Integer cents: the oracle's own arithmetic. */
const cents = (amount: number) => BigInt(Math.round(amount * 100));
const AT = new Date('2026-11-27T12:00:00.000Z');

function transfer(extra: Partial<Transfer> = {}): Transfer {
  return {
    _id: new Types.ObjectId(),
    amount: 100,
    state: 'paid',
    reversedAmount: null,
    credits: [],
    creditSeq: 0,
    ...extra,
  } as Transfer;
}

describe('transfer credit arithmetic', () => {
  it('the first credit is the transfer id; later ones are derived, stable and distinct', () => {
    const id = new Types.ObjectId();
    expect(creditAdjustmentIdOf(id, 1).equals(id)).toBe(true);
    const ids = [2, 3, 4, 5].map((n) => creditAdjustmentIdOf(id, n).toHexString());
    expect(new Set([id.toHexString(), ...ids]).size).toBe(5);
    expect(creditAdjustmentIdOf(id, 3).toHexString()).toBe(ids[1]);
    expect(creditAdjustmentIdOf(new Types.ObjectId(), 3).toHexString()).not.toBe(ids[1]);
  });

  it('a reversal step credits exactly the increase of the running total, capped at the amount', () => {
    expect(reversalStep(100, null, 10)).toEqual({ total: 10, increment: 10 });
    expect(reversalStep(100, 10, 40)).toEqual({ total: 40, increment: 30 });
    expect(reversalStep(100, 40, 10)).toBeNull(); // older report arriving late
    expect(reversalStep(100, 40, 40)).toBeNull(); // redelivered
    expect(reversalStep(100, 40, 250)).toEqual({ total: 100, increment: 60 });
    expect(reversalStep(100, 100, 250)).toBeNull();
    expect(reversalStep(0.3, 0.1, 0.3)).toEqual({ total: 0.3, increment: 0.2 }); // no float drift
  });

  it('any order of reports credits the highest total reported, to the cent (oracle)', () => {
    const reports = [0.01, 12.34, 5, 99.99, 100, 150, 33.33];
    const permutations = (xs: number[]): number[][] =>
      xs.length <= 1
        ? [xs]
        : xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
    for (const order of permutations(reports.slice(0, 5)).concat([reports])) {
      let t = transfer();
      let credited = 0n;
      for (const r of order) {
        const w = reversalCredit(t, r, AT);
        if (!w) continue;
        credited += w.credits.reduce((s, c) => s + cents(c.amount), 0n);
        t = {
          ...t,
          ...w.set,
          state: 'reversed',
          creditSeq: w.creditSeq,
          credits: [...t.credits, ...w.credits],
        };
      }
      const highest = order.reduce((m, r) => (cents(r) > m ? cents(r) : m), 0n);
      expect(credited).toBe(highest > 10000n ? 10000n : highest);
      expect(cents(t.reversedAmount!)).toBe(credited);
      expect(new Set(t.credits.map((c) => String(c.adjustmentId))).size).toBe(t.credits.length);
    }
  });

  it('each write is conditional on the counter and total as read; the first credit keeps the transfer id', () => {
    const t = transfer();
    const first = reversalCredit(t, 10, AT)!;
    expect(first.was).toEqual({ creditSeq: 0, reversedAmount: null });
    expect(first.creditSeq).toBe(1);
    expect(first.credits).toEqual([{ adjustmentId: t._id, amount: 10, reversedTotal: 10, at: AT }]);
    const after = { ...t, ...first.set, state: 'reversed' as const, creditSeq: 1, credits: first.credits };
    const second = reversalCredit(after, 40, AT)!;
    expect(second.was).toEqual({ creditSeq: 1, reversedAmount: 10 });
    expect(second.credits).toEqual([
      { adjustmentId: creditAdjustmentIdOf(t._id, 2), amount: 30, reversedTotal: 40, at: AT },
    ]);
  });

  it('a failure credits the whole amount; after a retry (ledger cleared) the next failure gets a new id', () => {
    const t = transfer({ state: 'sent' });
    const w = failureCredit(t, 'refused', AT);
    expect(w.credits).toEqual([{ adjustmentId: t._id, amount: 100, reversedTotal: null, at: AT }]);
    expect(w.set).toEqual({ lastError: 'refused', failedAt: AT });
    const retried = transfer({ _id: t._id, state: 'sent', creditSeq: 1, credits: [] });
    expect(failureCredit(retried, 'again', AT).credits[0].adjustmentId).toEqual(
      creditAdjustmentIdOf(t._id, 2),
    );
  });

  it('a transfer credited before the ledger existed owes its one credit, under its own id', () => {
    const legacy = transfer({ state: 'reversed', reversedAmount: 15, reversedAt: AT });
    delete (legacy as Partial<Transfer>).credits;
    delete (legacy as Partial<Transfer>).creditSeq;
    expect(ledgerOf(legacy)).toEqual([{ adjustmentId: legacy._id, amount: 15, reversedTotal: 15, at: AT }]);
    expect(creditSeqOf(legacy)).toBe(1);
    const raise = reversalCredit(legacy, 40, AT)!;
    expect(raise.was).toEqual({ creditSeq: null, reversedAmount: 15 });
    expect(raise.credits.map((c) => [String(c.adjustmentId), c.amount])).toEqual([
      [String(legacy._id), 15],
      [String(creditAdjustmentIdOf(legacy._id, 2)), 25],
    ]);
  });
});
