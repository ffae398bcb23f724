import { Types } from 'mongoose';
import { payoutRowsWhere } from './line-item-queries';

describe('payoutRowsWhere: one index range for the common payouts lists', () => {
  const vendorId = new Types.ObjectId();

  it('unfiltered (the first look): inPayouts alone, no $in over enums', () => {
    expect(payoutRowsWhere({})).toEqual({ inPayouts: true, type: undefined, orderCreatedAt: undefined });
    expect(payoutRowsWhere({ type: 'refund' })).toMatchObject({ inPayouts: true, type: 'refund' });
  });

  it('a status alone is one range of the status index', () => {
    expect(payoutRowsWhere({ payoutStatus: 'unpaid' })).toEqual({
      inPayouts: true,
      payoutStatus: 'unpaid',
      orderCreatedAt: undefined,
    });
  });

  it('a vendor: the vendor index, type as $in when absent', () => {
    expect(payoutRowsWhere({ vendorId })).toEqual({
      inPayouts: true,
      vendorId,
      type: { $in: ['sale', 'refund', null] }, // null: a sale row stored before refund rows existed
      orderCreatedAt: undefined,
    });
  });

  it('combined status filters keep every key of the status index in the equality prefix', () => {
    expect(payoutRowsWhere({ fulfillmentStatus: 'fulfilled', vendorId })).toEqual({
      inPayouts: true,
      vendorId,
      payoutStatus: { $in: ['unpaid', 'partial', 'paid'] },
      fulfillmentStatus: 'fulfilled',
      type: { $in: ['sale', 'refund', null] }, // null: a sale row stored before refund rows existed
      orderCreatedAt: undefined,
    });
  });
});
