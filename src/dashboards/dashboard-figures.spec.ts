import { Types } from 'mongoose';
import type { RefundGroup, SaleGroup } from '../line-items/sales-figures.repository';
import { changePercent, periodFigures } from './dashboard-figures';

const a = new Types.ObjectId();
const b = new Types.ObjectId();
const sale = (over: Partial<SaleGroup>): SaleGroup => ({
  vendorId: a,
  cancelled: false,
  orders: 1,
  lines: 1,
  fulfilled: 0,
  salesAfterDiscount: 0,
  payout: 0,
  commission: 0,
  ...over,
});
const refund = (over: Partial<RefundGroup>): RefundGroup => ({
  vendorId: a,
  orderId: 1,
  salesAfterDiscount: 0,
  payout: 0,
  commission: 0,
  ...over,
});

describe('periodFigures', () => {
  it('keeps a cancelled order out of every figure but cancelledSales, its refund included', () => {
    const f = periodFigures({
      totals: [
        sale({
          orders: 2,
          lines: 2,
          fulfilled: 1,
          salesAfterDiscount: 60.1,
          payout: 54.09,
          commission: 6.01,
        }),
        sale({ vendorId: b, orders: 1, lines: 1, salesAfterDiscount: 40, payout: 36, commission: 4 }),
        // a cancelled order's fulfilled line counts in neither side of the rate
        sale({
          cancelled: true,
          orders: 1,
          lines: 1,
          fulfilled: 1,
          salesAfterDiscount: 50,
          payout: 45,
          commission: 5,
        }),
      ],
      byVendor: [],
      refunds: [
        refund({ orderId: 7, salesAfterDiscount: -20.02, payout: -18.02, commission: -2 }),
        refund({ orderId: 9, salesAfterDiscount: -50, payout: -45, commission: -5 }),
      ],
      cancelledOrders: new Set([9]),
    });
    expect(f).toMatchObject({
      netSales: 80.08,
      refunds: 20.02,
      earnings: 72.07,
      commission: 8.01,
      totalOrders: 3,
      cancelledSales: 50,
      avgOrderValue: 33.37, // 100.10 / 3 = 33.3666… → 33.37
      fulfillmentRate: 0.3333, // 1 of the 3 lines of orders not cancelled
    });
  });

  it('sums store sums to the exact cent although they carry float noise', () => {
    // 0.1 + 0.2 summed by the store is 0.30000000000000004; 1.005 is really 1.00499999999999989…
    const f = periodFigures({
      totals: [
        sale({ salesAfterDiscount: 0.1 + 0.2, payout: 0.1 + 0.2 }),
        sale({ vendorId: b, salesAfterDiscount: 0.7 }),
      ],
      byVendor: [sale({ salesAfterDiscount: 0.1 + 0.2 }), sale({ vendorId: b, salesAfterDiscount: 0.7 })],
      refunds: [],
      cancelledOrders: new Set(),
    });
    expect(f.netSales).toBe(1);
    expect(f.earnings).toBe(0.3);
    expect(f.avgOrderValue).toBe(0.5);
    expect(f.fulfillmentRate).toBe(0);
    expect(f.vendors.get(String(a))).toEqual({ netSales: 0.3, orders: 1 });
  });

  it('gives zeros for an empty period (no division by zero)', () => {
    const f = periodFigures({
      totals: [],
      byVendor: [],
      refunds: [],
      cancelledOrders: new Set(),
    });
    expect(f).toMatchObject({
      netSales: 0,
      totalOrders: 0,
      avgOrderValue: 0,
      fulfillmentRate: 0,
      refunds: 0,
    });
  });

  it('per vendor: net of its refunds, cancelled orders out, rows without a vendor skipped', () => {
    const f = periodFigures({
      totals: [],
      byVendor: [
        sale({ vendorId: a, orders: 2, salesAfterDiscount: 30 }),
        sale({ vendorId: a, cancelled: true, salesAfterDiscount: 99 }),
        sale({ vendorId: null, salesAfterDiscount: 5 }),
      ],
      refunds: [
        refund({ vendorId: a, orderId: 3, salesAfterDiscount: -10.01 }),
        refund({ vendorId: b, orderId: 4, salesAfterDiscount: -1 }),
      ],
      cancelledOrders: new Set([4]),
    });
    expect([...f.vendors]).toEqual([[String(a), { netSales: 19.99, orders: 2 }]]);
  });
});

describe('changePercent', () => {
  it('is relative to |previous|, half-up to 2 dp, null when previous is 0', () => {
    expect(changePercent(50, 40)).toBe(25);
    expect(changePercent(1, 3)).toBe(-66.67);
    expect(changePercent(2, 3)).toBe(-33.33);
    expect(changePercent(-5, -10)).toBe(50);
    expect(changePercent(5, 0)).toBeNull();
    expect(changePercent(0, 0)).toBeNull();
  });
});
