import { buildOrderSummaries, SummaryLine } from './order-summary.builder';

const line = (over: Partial<SummaryLine>): SummaryLine => ({
  vendorId: 'a',
  quantity: 1,
  sales: 10,
  salesAfterDiscount: 9,
  costOfItem: 2,
  commission: 0.9,
  payout: 8.1,
  fulfillmentStatus: 'unfulfilled',
  payoutStatus: 'unpaid',
  fulfillment: null,
  ...over,
});

describe('buildOrderSummaries', () => {
  it('totals the whole order and each vendor; unassigned lines count only for the shop', () => {
    const shipped = new Date('2026-01-02T00:00:00Z');
    const parts = buildOrderSummaries([
      line({
        quantity: 2,
        sales: 20.1,
        salesAfterDiscount: 20.1,
        costOfItem: 0.1,
        commission: 2.01,
        payout: 18.09,
      }),
      line({
        vendorId: 'b',
        fulfillmentStatus: 'fulfilled',
        payoutStatus: 'paid',
        fulfillment: { createdAt: shipped },
      }),
      line({
        vendorId: null,
        sales: 0.2,
        salesAfterDiscount: 0.2,
        costOfItem: 0,
        commission: 0,
        payout: 0.2,
      }),
    ]);
    expect(parts.shop).toEqual({
      totalQuantity: 4,
      lineItemCount: 3,
      totalSales: 30.3,
      totalNetSales: 29.3,
      totalCostOfItem: 2.1,
      totalProfit: 27.2,
      totalCommission: 2.91,
      totalPayout: 26.39,
      status: ['fulfilled', 'unfulfilled'],
      fulfillmentStatus: 'partial',
      vendorPayoutStatus: 'partial',
      shipDate: shipped,
      deliveryDate: null,
    });
    expect(parts.vendors.map((v) => v.vendorId)).toEqual(['a', 'b']);
    expect(parts.vendors[1].totals).toMatchObject({
      lineItemCount: 1,
      fulfillmentStatus: 'fulfilled',
      vendorPayoutStatus: 'paid',
      status: ['fulfilled'],
    });
    expect(parts.vendors[0].totals).toMatchObject({
      fulfillmentStatus: 'unfulfilled',
      vendorPayoutStatus: 'unpaid',
      shipDate: null,
    });
  });

  it('an order without lines is unfulfilled and unpaid', () => {
    expect(buildOrderSummaries([]).shop).toMatchObject({
      lineItemCount: 0,
      fulfillmentStatus: 'unfulfilled',
      vendorPayoutStatus: 'unpaid',
      status: [],
    });
  });
});
