import { Types } from 'mongoose';
import { lineItem } from '../../test/fakes/line-items.fake';
import { cents, fmt, line as oracle } from '../../test/support/cents';
import { DEFAULT_MONEY_SETTINGS } from '../common/money';
import type { VendorSummary } from '../vendors/vendors.repository';
import type { IncomingLine, IncomingOrder } from './incoming-order';
import type { LineItem, LineItemFulfillment } from './line-item.schema';
import type { PricingContext } from './line-item-pricing';
import { priceRows, recutRefunds, Stamps } from './order-ingestion.steps';

const acme: VendorSummary = {
  _id: new Types.ObjectId(),
  vendorName: 'acme',
  commissionType: 'percentage',
  commissionAmount: 10,
  active: true,
};
const ctx: PricingContext = {
  settings: DEFAULT_MONEY_SETTINGS,
  refundsWaiting: false,
  vendorsByName: new Map([[acme.vendorName, acme]]),
  vendorsById: new Map([[String(acme._id), acme]]),
  skus: new Map(),
  productTypes: new Map(),
  productRules: new Map(),
  typeRules: new Map(),
};
const v1 = new Date('2026-11-20T10:00:00.000Z');
const v2 = new Date('2026-11-21T10:00:00.000Z');

const incomingLine = (
  lineItemId: number,
  price: string,
  quantity: number,
  vendor = 'Acme',
): IncomingLine => ({
  lineItemId,
  name: `Item ${lineItemId}`,
  variantTitle: null,
  sku: null,
  vendor,
  productId: null,
  variantId: null,
  price,
  quantity,
  discounts: [],
  taxes: [],
  fulfilled: false,
});
const order = (lines: IncomingLine[], updatedAt = v2): IncomingOrder => ({
  orderId: 7,
  orderNumber: 1007,
  orderName: '#1007',
  createdAt: v1,
  updatedAt,
  financialStatus: 'paid',
  cancelled: false,
  notes: null,
  customer: null,
  shippingAddress: { city: 'Lyon' },
  billingAddress: null,
  shippingTotal: '0.00',
  lines,
  fulfillments: [],
  refunds: [],
});
const noStamps: Stamps = { fulfillments: new Map(), receivedAt: null };
const shipped: LineItemFulfillment = {
  status: 'success',
  trackingCompany: null,
  trackingNumber: 'T-1',
  trackingUrl: null,
  shipmentStatus: null,
  platformFulfillmentId: 'F-1',
  createdAt: v2,
  deliveredAt: null,
};
const stored = (lineItemId: number, over: Partial<LineItem> = {}) =>
  lineItem({ orderId: 7, lineItemId, vendorId: acme._id, vendorName: 'acme', sourceUpdatedAt: v1, ...over });

describe('priceRows', () => {
  it("a new order's lines are inserts carrying the order.received marker, priced to the cent", () => {
    const receivedAt = new Date('2026-11-21T10:00:05.000Z');
    const out = priceRows(order([incomingLine(1, '19.99', 3), incomingLine(2, '0.05', 1)]), [], ctx, {
      fulfillments: new Map([[2, shipped]]),
      receivedAt,
    });
    expect(out.writes).toEqual([]);
    expect(out.contextOnly).toEqual([]);
    expect(out.vendorChanged).toBe(false);
    expect(out.inserts.map((i) => [i.lineItemId, i.type, i.vendorId, i.eventPendingAt])).toEqual([
      [1, 'sale', acme._id, receivedAt],
      [2, 'sale', acme._id, receivedAt],
    ]);
    for (const [i, [price, quantity]] of [
      ['19.99', 3],
      ['0.05', 1],
    ].entries()) {
      const want = oracle(price as string, quantity as number, 10n);
      expect(fmt(cents(String(out.inserts[i].sales)))).toBe(fmt(want.sales));
      expect(fmt(cents(String(out.inserts[i].commission)))).toBe(fmt(want.commission));
      expect(fmt(cents(String(out.inserts[i].payout)))).toBe(fmt(want.payout));
    }
    expect(out.inserts[0]).toMatchObject({ fulfillmentStatus: 'unfulfilled', fulfillment: null });
    expect(out.inserts[1]).toMatchObject({ fulfillmentStatus: 'fulfilled', fulfillment: shipped });
    expect([...out.final.keys()]).toEqual([1, 2]);
  });

  it('stored rows: frozen ones get the context only, newer ones are left, the rest are guarded writes', () => {
    const frozen = stored(1, { frozen: true, paid: 9 });
    const newer = stored(2, { sourceUpdatedAt: new Date('2026-11-22T10:00:00.000Z') });
    const moved = stored(3, { paid: 4.5, deduction: 1.25, vendorName: 'gone' });
    const out = priceRows(
      order([
        incomingLine(1, '10.00', 1),
        incomingLine(2, '10.00', 1),
        incomingLine(3, '10.00', 1, 'Nobody'),
      ]),
      [frozen, newer, moved],
      ctx,
      { fulfillments: new Map([[3, shipped]]), receivedAt: null },
    );
    expect(out.inserts).toEqual([]);
    expect(out.contextOnly).toEqual([
      {
        id: frozen._id,
        guard: {},
        set: expect.objectContaining({ orderName: '#1007', shippingAddress: { city: 'Lyon' } }),
      },
    ]);
    expect(out.contextOnly[0].set).not.toHaveProperty('payout');
    expect(out.writes.map((w) => [w.id, w.guard])).toEqual([
      [
        moved._id,
        { frozen: false, batchId: null, paid: 4.5, deduction: 1.25, fulfillmentStatus: 'unfulfilled' },
      ],
    ]);
    // 'nobody' names no vendor: the row leaves acme, so the summaries are rewritten per vendor
    expect(out.writes[0].set).toMatchObject({ vendorId: null, vendorName: 'nobody', fulfillment: shipped });
    expect(out.vendorChanged).toBe(true);
    expect(out.final.get(1)).toBe(frozen);
    expect(out.final.get(2)).toBe(newer);
    expect(out.final.get(3)).toMatchObject({ _id: moved._id, vendorId: null, sourceUpdatedAt: v2 });
  });

  it('a repriced row keeping its vendor changes no vendor and adds no marker', () => {
    const prev = stored(1, { fulfillmentStatus: 'fulfilled', fulfillment: shipped });
    const out = priceRows(order([incomingLine(1, '12.00', 2)]), [prev], ctx, noStamps);
    expect(out.vendorChanged).toBe(false);
    expect(out.writes[0].guard).toEqual({ frozen: false, batchId: null, paid: 0, deduction: 0 });
    expect(out.writes[0].set).not.toHaveProperty('eventPendingAt');
    expect(fmt(cents(String(out.writes[0].set.payout)))).toBe(fmt(oracle('12.00', 2, 10n).payout));
  });
});

describe('recutRefunds', () => {
  it("an unsettled refund row follows its sale row's vendor and figures; another line's row is left as it is", () => {
    const sale = stored(1, { vendorId: null, vendorName: 'nobody', quantity: 2, sales: 20, payout: 20 });
    const refundRow = (over: Partial<LineItem>) =>
      stored(1, { type: 'refund', refundId: 'R', refundLineItemId: 'RL', refundedQuantity: 1, ...over });
    const open = refundRow({ paid: 0, sales: -9, payout: -9 });
    const other = lineItem({ orderId: 7, lineItemId: 2, type: 'refund', refundedQuantity: 1 });
    const out = recutRefunds(new Map([[1, sale]]), [open, other]);
    expect(out.writes.map((w) => [w.id, w.guard])).toEqual([
      [open._id, { frozen: false, batchId: null, paid: 0 }],
    ]);
    expect(out.writes[0].set).toMatchObject({ vendorId: null, vendorName: 'nobody', inPayouts: false });
    expect(fmt(cents(String(out.writes[0].set.sales)))).toBe('-10.00');
    expect(out.vendorChanged).toBe(true);
    expect(out.view).toEqual([{ ...open, ...out.writes[0].set }, other]);
  });

  it('nothing to write when the refund rows already read what the rule gives', () => {
    const sale = stored(1, { quantity: 2, sales: 20, salesAfterDiscount: 20, commission: 2, payout: 18 });
    const first = recutRefunds(new Map([[1, sale]]), [
      stored(1, { type: 'refund', refundId: 'R', refundLineItemId: 'RL', refundedQuantity: 1 }),
    ]);
    const settled = { ...first.view[0] } as LineItem;
    const again = recutRefunds(new Map([[1, sale]]), [settled]);
    expect(again).toEqual({ writes: [], view: [settled], vendorChanged: false });
  });
});
