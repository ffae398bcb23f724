import { Injectable } from '@nestjs/common';
import { sumAmounts } from '../../common/money';
import { PAYABLE_FINANCIAL_STATUSES, type LineItem } from '../../line-items/line-item.schema';
import type { TimelineContext, TimelineEntry, TimelineSource } from './timeline-entry';

const label = (l: LineItem): string => l.sku || l.name || `line ${l.lineItemId}`;
const vendorOf = (l: LineItem): string | null => (l.vendorId ? String(l.vendorId) : null);

/**
 * What the stored rows say happened: received and paid (the order), fulfilled (each sale line's
 * fulfillment), refunded (each refund row), paid out (each batch that paid rows of the order).
 * The order payload carries no time of payment: `paid` is dated at the order's creation (what is
 * known) and says so with `timeKnown: false`.
 */
@Injectable()
export class LineRowsTimelineSource implements TimelineSource {
  entries(ctx: TimelineContext): TimelineEntry[] {
    return [
      ...orderEntries(ctx),
      ...fulfilledEntries(ctx.lines),
      ...refundEntries(ctx.lines),
      ...paidOut(ctx.lines),
    ];
  }
}

export function orderEntries({ summary }: TimelineContext): TimelineEntry[] {
  const out: TimelineEntry[] = [
    {
      type: 'received',
      at: summary.orderCreatedAt,
      message: `Order ${summary.orderName} received`,
      data: { financialStatus: summary.financialStatus },
    },
  ];
  if ((PAYABLE_FINANCIAL_STATUSES as readonly string[]).includes(summary.financialStatus)) {
    out.push({
      type: 'paid',
      at: summary.orderCreatedAt,
      message: `Payment captured (financial status ${summary.financialStatus})`,
      data: { financialStatus: summary.financialStatus, timeKnown: false },
    });
  }
  return out;
}

export function fulfilledEntries(lines: LineItem[]): TimelineEntry[] {
  return lines
    .filter((l) => l.type !== 'refund' && l.fulfillmentStatus === 'fulfilled')
    .map((l) => {
      const f = l.fulfillment;
      const tracking = [f?.trackingCompany, f?.trackingNumber].filter(Boolean).join(' ');
      return {
        type: 'fulfilled' as const,
        at: f?.createdAt ?? l.updatedAt,
        message: `${label(l)} × ${l.quantity} fulfilled${tracking ? `: ${tracking}` : ''}`,
        data: {
          lineItemId: String(l._id),
          vendorId: vendorOf(l),
          sku: l.sku ?? null,
          quantity: l.quantity,
          trackingCompany: f?.trackingCompany ?? null,
          trackingNumber: f?.trackingNumber ?? null,
          trackingUrl: f?.trackingUrl ?? null,
        },
      };
    });
}

export function refundEntries(lines: LineItem[]): TimelineEntry[] {
  return lines
    .filter((l) => l.type === 'refund')
    .map((l) => ({
      type: 'refunded' as const,
      // a refund row holds the refund's date (processed_at, else created_at) in orderCreatedAt
      at: l.orderCreatedAt,
      message: `${label(l)} × ${l.refundedQuantity ?? 0} refunded`,
      data: {
        lineItemId: String(l._id),
        vendorId: vendorOf(l),
        refundId: l.refundId ?? null,
        refundedQuantity: l.refundedQuantity ?? null,
        salesAfterDiscount: l.salesAfterDiscount,
        payout: l.payout,
      },
    }));
}

/** One entry per batch (a batch pays one vendor) that paid rows of this order, at its latest payment. */
export function paidOut(lines: LineItem[]): TimelineEntry[] {
  const byBatch = new Map<string, LineItem[]>();
  for (const l of lines) {
    if (!l.batchId || !l.paidAt) continue;
    byBatch.set(l.batchId, [...(byBatch.get(l.batchId) ?? []), l]);
  }
  return [...byBatch.entries()].map(([batchId, rows]) => {
    const amount = sumAmounts(rows.map((r) => r.batchPaidAmount ?? 0));
    return {
      type: 'paid_out' as const,
      at: new Date(Math.max(...rows.map((r) => r.paidAt!.getTime()))),
      message: `Paid out in batch ${batchId}`,
      data: { batchId, vendorId: vendorOf(rows[0]), amount, lineItemIds: rows.map((r) => String(r._id)) },
    };
  });
}
