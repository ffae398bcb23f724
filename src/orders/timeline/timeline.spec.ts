import { Types } from 'mongoose';
import { lineItem } from '../../../test/fakes/line-items.fake';
import { shopScope } from '../../common/tenancy';
import type { OrderSummary } from '../../order-data/order-summary.schema';
import { LineRowsTimelineSource } from './line-rows.source';
import { mergeTimeline, type TimelineEntry } from './timeline-entry';

const d = (s: string) => new Date(`2026-11-${s}Z`);
const vendorA = new Types.ObjectId();

const summary = (financialStatus: string) =>
  ({ orderName: '#1001', orderCreatedAt: d('01T10:00:00'), financialStatus }) as OrderSummary;

describe('order timeline', () => {
  it('merges sources oldest first; same time by type, then as given', () => {
    const e = (type: TimelineEntry['type'], at: string, message: string): TimelineEntry => ({
      type,
      at: d(at),
      message,
      data: {},
    });
    const merged = mergeTimeline([
      [e('note', '01T10:00:00', 'n1'), e('fulfilled', '02T00:00:00', 'f')],
      [e('received', '01T10:00:00', 'r'), e('note', '01T10:00:00', 'n2'), e('paid_out', '01T09:00:00', 'p')],
    ]);
    expect(merged.map((x) => x.message)).toEqual(['p', 'r', 'n1', 'n2', 'f']);
  });

  it('derives received, paid, fulfilled, refunded and one paid-out entry per batch from the rows', () => {
    const sale = lineItem({
      orderId: 1,
      lineItemId: 11,
      vendorId: vendorA,
      sku: 'A-1',
      quantity: 2,
      fulfillmentStatus: 'fulfilled',
      fulfillment: {
        status: 'success',
        trackingCompany: 'UPS',
        trackingNumber: 'T1',
        trackingUrl: null,
        shipmentStatus: null,
        platformFulfillmentId: null,
        createdAt: d('02T00:00:00'),
        deliveredAt: null,
      },
      batchId: 'B1',
      paidAt: d('05T00:00:00'),
      batchPaidAmount: 18.1,
    });
    const refund = lineItem({
      orderId: 1,
      lineItemId: 11,
      vendorId: vendorA,
      sku: 'A-1',
      type: 'refund',
      refundId: 'R1',
      refundedQuantity: 1,
      orderCreatedAt: d('03T00:00:00'),
      payout: -9.05,
      batchId: 'B1',
      paidAt: d('05T00:00:01'),
      batchPaidAmount: -9.05,
    });
    const unpaid = lineItem({ orderId: 1, lineItemId: 12, vendorId: vendorA, sku: 'A-2' });
    const entries = mergeTimeline([
      new LineRowsTimelineSource().entries({
        scope: shopScope(new Types.ObjectId().toHexString()),
        orderId: 1,
        summary: summary('paid'),
        lines: [sale, refund, unpaid],
      }),
    ]);
    expect(entries.map((e) => e.type)).toEqual(['received', 'paid', 'fulfilled', 'refunded', 'paid_out']);
    expect(entries[2].message).toBe('A-1 × 2 fulfilled: UPS T1');
    expect(entries[3].data).toMatchObject({ refundId: 'R1', refundedQuantity: 1, payout: -9.05 });
    expect(entries[4]).toMatchObject({
      at: d('05T00:00:01'),
      data: { batchId: 'B1', amount: 9.05, vendorId: String(vendorA) },
    });
  });

  it('no paid entry before the money is captured', () => {
    const entries = new LineRowsTimelineSource().entries({
      scope: shopScope(new Types.ObjectId().toHexString()),
      orderId: 1,
      summary: summary('pending'),
      lines: [],
    });
    expect(entries.map((e) => e.type)).toEqual(['received']);
  });
});
