import { Types } from 'mongoose';
import type { PayoutAdjustment } from '../adjustments/payout-adjustment.schema';
import type { MoneyRowSource } from '../line-items/line-item-views';
import { buildStatement, type StatementBatch } from './statement.mapper';

const batch = (over: Partial<StatementBatch> = {}): StatementBatch =>
  ({
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(),
    vendorId: new Types.ObjectId(),
    vendorName: 'acme',
    periodEnd: '2026-03-31',
    cutoff: new Date('2026-03-31T23:59:59.999Z'),
    status: 'completed',
    total: 0,
    ...over,
  }) as StatementBatch;

const row = (over: Partial<MoneyRowSource>): MoneyRowSource =>
  ({
    _id: new Types.ObjectId(),
    orderId: 1,
    lineItemId: 2,
    orderName: '#1',
    orderNumber: 1,
    orderCreatedAt: new Date('2026-03-01T00:00:00Z'),
    vendorId: null,
    vendorName: 'acme',
    name: 'Thing',
    sku: null,
    quantity: 1,
    sales: 0,
    discount: 0,
    salesAfterDiscount: 0,
    tax: 0,
    shipping: 0,
    commission: 0,
    costOfItem: 0,
    taxOnCommissions: 0,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    payout: 0,
    paid: 0,
    balance: 0,
    payoutStatus: 'paid',
    fulfillmentStatus: 'unfulfilled',
    batchId: null,
    batchPaidAmount: null,
    ...over,
  }) as MoneyRowSource;

describe('buildStatement', () => {
  it('sums every figure in decimal (0.1 + 0.2 = 0.30, not 0.30000000000000004) and closes at 0 when paid', () => {
    const s = buildStatement(
      batch({ total: 0.3 }),
      [
        row({ payout: 0.1, sales: 0.1, batchPaidAmount: 0.1 }),
        row({ payout: 0.2, sales: 0.2, batchPaidAmount: 0.2 }),
      ],
      [],
    );
    expect(s.totals.figures.sales).toBe(0.3);
    expect(s.totals.net).toBe(0.3);
    expect(s.paid).toBe(0.3);
    expect(s.closingBalance).toBe(0);
  });

  it('reads refund rows as refunds (refunded quantity, refund ids) and nets them with sales and adjustments', () => {
    const s = buildStatement(
      batch({ total: 50, openingBalance: -27 }),
      [
        row({ payout: 90, batchPaidAmount: 90 }),
        row({
          type: 'refund',
          payout: -45,
          sales: -50,
          refundId: '820982911946154508',
          refundLineItemId: '104689539',
          refundedQuantity: 1,
          quantity: 2,
        }),
      ],
      [
        {
          _id: new Types.ObjectId(),
          amount: 5,
          customId: 'ADJ-000001',
          comments: 'bonus',
          customItemDate: new Date('2026-03-02T00:00:00Z'),
        } as PayoutAdjustment,
      ],
    );
    const refund = s.rows.find((r) => r.kind === 'refund')!;
    expect(refund).toMatchObject({ refundId: '820982911946154508', quantity: 1, amount: -45 });
    expect(s.totals).toMatchObject({
      saleCount: 1,
      refundCount: 1,
      adjustmentCount: 1,
      sales: 90,
      refunds: -45,
      adjustments: 5,
      net: 50,
    });
    // the −27 carried in is among the rows (the −45 refund netted here): net 50 − paid 50 = 0
    expect(s.openingBalance).toBe(-27);
    expect(s.paid).toBe(50);
    expect(s.closingBalance).toBe(0);
  });

  it('a batch that paid nothing (not completed, or carried forward) pays 0; a recorded closing balance wins', () => {
    const carried = buildStatement(
      batch({ status: 'carried_forward' as StatementBatch['status'], total: -27, closingBalance: -27 }),
      [],
      [],
    );
    expect(carried.paid).toBe(0);
    expect(carried.closingBalance).toBe(-27);
    const running = buildStatement(batch({ status: 'running', total: 0 }), [row({ payout: 10 })], []);
    expect(running.paid).toBe(0);
    expect(running.closingBalance).toBe(10);
  });
});
