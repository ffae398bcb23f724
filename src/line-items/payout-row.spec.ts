import { Types } from 'mongoose';
import { isPayoutRow } from './line-item.schema';

describe('isPayoutRow (the materialised inPayouts flag)', () => {
  const vendorId = new Types.ObjectId();

  it('lists a vendor line of a paid order', () => {
    expect(isPayoutRow({ vendorId, financialStatus: 'paid', batchId: null })).toBe(true);
  });

  it('keeps a line a batch paid, whatever happened to the order since', () => {
    expect(isPayoutRow({ vendorId, financialStatus: 'refunded', batchId: 'b1' })).toBe(true);
  });

  it('leaves out unpaid orders and unassigned lines', () => {
    expect(isPayoutRow({ vendorId, financialStatus: 'pending', batchId: null })).toBe(false);
    expect(isPayoutRow({ vendorId: null, financialStatus: 'paid', batchId: null })).toBe(false);
    expect(isPayoutRow({ financialStatus: 'paid' })).toBe(false);
  });
});
