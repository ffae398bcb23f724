import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { sumAmounts } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../events/event-sink';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { toLineItemResponse } from '../line-items/line-item.mapper';

/** A refund row just cut: which refund line it is and whose. */
export interface CutRefundRow {
  refundId?: string | null;
  refundLineItemId?: string | number | null;
  vendorId?: unknown;
}

/**
 * `refund.recorded` (DESIGN §11): one event per vendor of an order whose refund rows were just cut,
 * with those rows as GET /v1/orders/{id}/lineitems shows them (negative figures: what is clawed
 * back) and their payout total. Keyed by the order, the vendor and the refund lines, so the same
 * rows never make two events.
 */
@Injectable()
export class RefundEvents {
  private readonly logger = new Logger('RefundEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly lineItems: LineItemsRepository,
    private readonly clock: Clock,
  ) {}

  /** Never throws: the rows are recorded whatever happens to their events. */
  async recorded(scope: ShopScope, orderId: number, cut: CutRefundRow[]): Promise<void> {
    try {
      const keys = new Set(cut.map((c) => `${String(c.refundId)}:${String(c.refundLineItemId)}`));
      const rows = (await this.lineItems.findForOrders(scope, [orderId])).filter(
        (l) =>
          l.type === 'refund' &&
          l.vendorId &&
          keys.has(`${String(l.refundId)}:${String(l.refundLineItemId)}`),
      );
      const byVendor = new Map<string, typeof rows>();
      for (const r of rows)
        byVendor.set(String(r.vendorId), [...(byVendor.get(String(r.vendorId)) ?? []), r]);
      const events: SourcedEvent[] = [];
      for (const [vendorId, own] of byVendor) {
        const lines = own.map((r) => `${String(r.refundId)}:${String(r.refundLineItemId)}`).sort();
        events.push({
          key: `refund.recorded:${orderId}:${vendorId}:${lines.join(',')}`,
          type: 'refund.recorded',
          createdAt: this.clock.now(),
          object: {
            orderId: String(orderId),
            vendorId,
            refundIds: [...new Set(own.map((r) => String(r.refundId)))],
            payout: sumAmounts(own.map((r) => r.payout)),
            refundRows: own.map(toLineItemResponse),
          },
        });
      }
      await this.sink.emit(scope, events);
    } catch (err) {
      this.logger.error({ err: (err as Error)?.message, orderId }, 'Refund events not emitted');
    }
  }
}
