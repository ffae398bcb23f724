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
});
