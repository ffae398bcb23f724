import { Types } from 'mongoose';
import type { PayoutAdjustment } from '../adjustments/payout-adjustment.schema';
import type { Transfer } from '../transfers/transfer.schema';
import type { PayoutBatch } from './payout-batch.schema';
import { reconcileTransfers } from './transfer-reconcile';

const batch = (total: number, extra: Partial<PayoutBatch> = {}) =>
  ({ _id: new Types.ObjectId(), status: 'completed', total, transferDue: false, ...extra }) as PayoutBatch;
const transfer = (b: PayoutBatch, state: Transfer['state'], extra: Partial<Transfer> = {}) =>
  ({ _id: new Types.ObjectId(), batchId: b._id, amount: b.total, state, ...extra }) as Transfer;
const credit = (t: Transfer, amount: number, status: 'UNPAID' | 'PAID') =>
  ({ _id: t._id, type: 'ADDITION', amount, status }) as PayoutAdjustment;

describe('reconcileTransfers', () => {
  it('a failed transfer credited back and paid by the next batch: delivered is what was earned', () => {
    const first = batch(90);
    const t1 = transfer(first, 'failed');
    const second = batch(108); // the 90.00 credit + an 18.00 sale
    const t2 = transfer(second, 'paid');
    const r = reconcileTransfers([second, first], [t1, t2], [credit(t1, 90, 'PAID')]);
    expect(r).toEqual({
      transferred: 198,
      creditedBack: 90,
      creditPaid: 90,
      delivered: 108,
      differences: [],
    });
  });

  it('names a missing transfer, a wrong amount, a missing or wrong credit; tolerates a hand-over in progress', () => {
    const missing = batch(10);
    const due = batch(11, { transferDue: true });
    const legacy = batch(12, { transferDue: undefined });
    const wrong = batch(20);
    const tWrong = transfer(wrong, 'paid', { amount: 19.99 });
    const failed = batch(30);
    const tFailed = transfer(failed, 'failed');
    const reversed = batch(40);
    const tReversed = transfer(reversed, 'reversed', { reversedAmount: 15 });
    const carried = batch(0, { status: 'carried_forward' });
    const r = reconcileTransfers(
      [missing, due, legacy, wrong, failed, reversed, carried],
      [tWrong, tFailed, tReversed],
      [credit(tReversed, 40, 'UNPAID')],
    );
    expect(r.differences).toEqual([
      `completed batch ${String(missing._id)} has no transfer`,
      `batch ${String(wrong._id)} paid 20 but its transfer sends 19.99`,
      `failed transfer ${String(tFailed._id)} of 30 is not credited back`,
      `credit-back ${String(tReversed._id)} is ADDITION 40, the reversed transfer owes 15`,
    ]);
  });

  it('a transfer reversed in three parts: each credit is checked, their sum is what it owes', () => {
    const first = batch(100);
    const ids = [new Types.ObjectId(), new Types.ObjectId(), new Types.ObjectId()];
    const t1 = transfer(first, 'reversed', {
      reversedAmount: 100,
      credits: [
        { adjustmentId: ids[0], amount: 10, reversedTotal: 10, at: new Date() },
        { adjustmentId: ids[1], amount: 30, reversedTotal: 40, at: new Date() },
        { adjustmentId: ids[2], amount: 60, reversedTotal: 100, at: new Date() },
      ],
    });
    const second = batch(40); // the first two credits, paid again
    const t2 = transfer(second, 'paid');
    const adj = (id: Types.ObjectId, amount: number, status: 'UNPAID' | 'PAID') =>
      ({ _id: id, type: 'ADDITION', amount, status }) as PayoutAdjustment;
    const ok = reconcileTransfers(
      [second, first],
      [t1, t2],
      [adj(ids[0], 10, 'PAID'), adj(ids[1], 30, 'PAID'), adj(ids[2], 60, 'UNPAID')],
    );
    expect(ok).toEqual({
      transferred: 140,
      creditedBack: 100,
      creditPaid: 40,
      delivered: 40,
      differences: [],
    });
    const short = reconcileTransfers([first], [t1], [adj(ids[0], 10, 'PAID'), adj(ids[2], 59.99, 'UNPAID')]);
    expect(short.differences).toEqual([
      `reversed transfer ${String(t1._id)} of 100 is not credited back (30 as ${String(ids[1])})`,
      `credit-back ${String(ids[2])} is ADDITION 59.99, the reversed transfer owes 60`,
    ]);
    const overRecorded = transfer(first, 'reversed', {
      reversedAmount: 40,
      credits: [{ adjustmentId: ids[0], amount: 50, reversedTotal: 50, at: new Date() }],
    });
    expect(reconcileTransfers([first], [overRecorded], [adj(ids[0], 50, 'UNPAID')]).differences).toEqual([
      `reversed transfer ${String(overRecorded._id)} owes 40 but records credits of 50`,
    ]);
  });
});
