import { Types } from 'mongoose';
import { lineItem } from '../../test/fakes/line-items.fake';
import type { LineItem } from './line-item.schema';
import { plannedRefundRows, recutRefundRows } from './refund-rows';
import type { Refund } from '../refunds/refund.schema';

const vendorId = new Types.ObjectId();
const sale = (over: Partial<LineItem> = {}) =>
  lineItem({
    orderId: 1,
    lineItemId: 10,
    vendorId,
    quantity: 3,
    sales: 99.99,
    salesAfterDiscount: 99.99,
    commission: 10,
    payout: 89.99,
    balance: 89.99,
    ...over,
  });
const refund = (refundId: string, day: number, lines: Array<[string, number, number]>): Refund =>
  ({
    refundId,
    orderId: 1,
    platformCreatedAt: new Date(`2026-11-${day}T10:00:00Z`),
    processedAt: null,
    lines: lines.map(([refundLineItemId, lineItemId, quantity]) => ({
      refundLineItemId,
      lineItemId,
      quantity,
    })),
    unattributed: [],
    rowsApplied: false,
  }) as unknown as Refund;

describe('plannedRefundRows', () => {
  it('cuts each refund line item once, oldest refund first, the last one taking the remainder', () => {
    const rows = [sale()];
    const first = plannedRefundRows([refund('2', 12, [['b', 10, 2]]), refund('1', 11, [['a', 10, 1]])], rows);
    expect(first.appliedRefundIds).toEqual(['1', '2']);
    expect(first.docs.map((d) => [d.refundLineItemId, d.payout, d.sales, d.commission])).toEqual([
      ['a', -30, -33.33, -3.33],
      ['b', -59.99, -66.66, -6.67],
    ]);
    // the same refunds again, with their rows stored: nothing new
    const stored = [
      ...rows,
      ...first.docs.map((d) => lineItem({ ...(d as LineItem), orderId: 1, lineItemId: 10 })),
    ];
    expect(plannedRefundRows([refund('1', 11, [['a', 10, 1]])], stored).docs).toEqual([]);
  });

  it('a refund of a line not stored yet waits (not applied), the rest of the order goes ahead', () => {
    const out = plannedRefundRows(
      [
        refund('9', 11, [
          ['x', 10, 1],
          ['y', 77, 1],
        ]),
      ],
      [sale()],
    );
    expect(out.docs).toHaveLength(1);
    expect(out.appliedRefundIds).toEqual([]);
  });

  it('a refund row carries its sale line’s commission rule and plan (what priced the figures it reverses)', () => {
    const rule = { level: 'productType' as const, id: String(new Types.ObjectId()) };
    const [cut] = plannedRefundRows(
      [refund('1', 11, [['a', 10, 1]])],
      [sale({ commissionRule: rule, commissionPlan: 'gold' })],
    ).docs;
    expect(cut).toMatchObject({ commissionRule: rule, commissionPlan: 'gold' });
    const [plain] = plannedRefundRows([refund('1', 11, [['a', 10, 1]])], [sale()]).docs;
    expect(plain.commissionRule).toBeNull();
  });
});

describe('recutRefundRows', () => {
  it('an unsettled refund row follows its line to a vendor and a new commission; a settled one stays', () => {
    const unpriced = sale({ vendorId: null, commission: 0, payout: 99.99 });
    const [cut] = plannedRefundRows([refund('1', 11, [['a', 10, 1]])], [unpriced]).docs;
    const row = lineItem({ ...(cut as LineItem), orderId: 1, lineItemId: 10 });
    expect(row.payout).toBe(-33.33);
    const changes = recutRefundRows(sale(), [row]);
    expect(changes).toHaveLength(1);
    expect(changes[0].set).toMatchObject({ payout: -30, commission: -3.33, vendorId, inPayouts: true });
    expect(recutRefundRows(sale(), [{ ...row, frozen: true, batchId: 'b1' }])).toEqual([]);
  });

  it('an unsettled refund row follows its line to a new commission rule; the same rule (by value) changes nothing', () => {
    const rule = { level: 'product' as const, id: String(new Types.ObjectId()) };
    const [cut] = plannedRefundRows([refund('1', 11, [['a', 10, 1]])], [sale()]).docs;
    const row = lineItem({ ...(cut as LineItem), orderId: 1, lineItemId: 10 });
    const priced = sale({ commissionRule: rule });
    const changes = recutRefundRows(priced, [row]);
    expect(changes).toHaveLength(1);
    expect(changes[0].set).toMatchObject({ commissionRule: rule });
    expect(recutRefundRows(priced, [{ ...row, commissionRule: { ...rule } }])).toEqual([]);
    expect(recutRefundRows(sale(), [{ ...row, commissionRule: rule }])[0].set).toMatchObject({
      commissionRule: null,
    });
  });
});
