import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { sumAmounts } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import type { IncomingRefund } from '../line-items/incoming-refund';
import { RefundEvents } from './refund-events';
import { RefundMetrics } from './refund-metrics';
import { plannedRefundRows } from '../line-items/refund-rows';
import type { Refund } from './refund.schema';
import { RefundsRepository } from './refunds.repository';
import { ShopsRepository } from '../shops/shops.repository';
import { VendorTally } from '../line-items/vendor-tally.service';

/** The unattributed refund amounts of an order, as its read shows them. */
export interface UnattributedRefund {
  refundId: string;
  kind: string;
  amount: number;
  reason: string | null;
  processedAt: Date;
}

/**
 * Refunds into refund rows (DESIGN §6): every payload that carries refunds (`refunds/create`, the
 * `refunds[]` of order payloads) stores them once, then the order's refund rows are cut from its
 * sale rows — each (refund id, refund line item id) once, whichever payload brings it first. A
 * refund whose order has not arrived waits in `refunds` until the order's ingestion applies it.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly refunds: RefundsRepository,
    private readonly lineItems: LineItemsRepository,
    private readonly summaries: OrderSummaryRefresher,
    private readonly audit: AuditTrail,
    private readonly metrics: RefundMetrics,
    private readonly shops: ShopsRepository,
    private readonly events: RefundEvents,
    private readonly tally: VendorTally,
    private readonly clock: Clock,
  ) {}

  /** Stores the refunds and applies those of their orders; what happened, for the delivery's result. */
  async receive(scope: ShopScope, refunds: IncomingRefund[]): Promise<string> {
    if (refunds.length === 0) return 'no refunds';
    await this.refunds.record(scope, refunds);
    const out: string[] = [];
    for (const orderId of [...new Set(refunds.map((r) => r.orderId))]) {
      const { rows, waiting } = await this.applyForOrder(scope, orderId);
      out.push(
        waiting
          ? `refund kept until order ${orderId} arrives`
          : `${rows} refund row(s) recorded for order ${orderId}`,
      );
    }
    return out.join('; ');
  }

  /**
   * Cuts the refund rows the order's stored refunds still lack (none when it has no refunds, or its
   * sale rows are not there yet). Idempotent: the unique index refuses a row already recorded.
   */
  async applyForOrder(scope: ShopScope, orderId: number): Promise<{ rows: number; waiting: boolean }> {
    const refunds = await this.refunds.forOrder(scope, orderId);
    if (refunds.length === 0 || refunds.every((r) => r.rowsApplied)) return { rows: 0, waiting: false };
    const rows = await this.lineItems.findForOrders(scope, [orderId]);
    if (!rows.some((r) => r.type !== 'refund')) {
      // The order has not arrived: its ingestion will look its refunds up while the shop counts some.
      for (const r of refunds.filter((x) => !x.rowsApplied && !x.waiting)) {
        if (await this.refunds.setWaiting(scope, r.refundId, true))
          await this.shops.addRefundsWaiting(scope.shopId, 1);
      }
      return { rows: 0, waiting: true };
    }
    const { docs, appliedRefundIds } = plannedRefundRows(refunds, rows);
    // Every row of this cut carries the pending marker of its refund.recorded (DESIGN §11).
    const at = this.clock.now();
    const inserted = await this.lineItems.insertRefundRows(
      scope,
      docs.map((d) => ({ ...d, eventPendingAt: at })),
    );
    this.tally.settleSoon(
      scope,
      docs.map((d) => d.vendorId),
    );
    await this.refunds.markApplied(
      scope,
      appliedRefundIds.filter((id) => !refunds.find((r) => r.refundId === id)?.rowsApplied),
    );
    for (const r of refunds.filter((x) => x.waiting && appliedRefundIds.includes(x.refundId))) {
      if (await this.refunds.setWaiting(scope, r.refundId, false))
        await this.shops.addRefundsWaiting(scope.shopId, -1);
    }
    if (docs.length > 0) {
      await this.summaries.refresh(scope, [orderId]);
      const clawedBack = sumAmounts(docs.map((d) => -(d.payout ?? 0)));
      this.metrics.refundRowsRecorded(scope.shopId, inserted, inserted === docs.length ? clawedBack : 0);
      await this.audit.platformEvents(
        scope,
        'refund.record',
        docs.map((d) => ({
          resource: { type: 'refund' as const, id: `${d.refundId}:${d.refundLineItemId}` },
          after: {
            orderId,
            refundId: d.refundId,
            refundLineItemId: d.refundLineItemId,
            lineItemId: d.lineItemId,
            vendorId: d.vendorId,
            refundedQuantity: d.refundedQuantity,
            sales: d.sales,
            commission: d.commission,
            payout: d.payout,
          },
        })),
      );
      await this.events.recorded(scope, orderId, at);
      this.logger.log({ shopId: scope.shopId, orderId, rows: inserted }, 'Refund rows recorded');
    }
    return {
      rows: inserted,
      waiting: appliedRefundIds.length < refunds.filter((r) => !r.rowsApplied).length,
    };
  }

  /** Refund amounts of the order tied to no line (shipping refunds, discrepancies). */
  async unattributed(scope: ShopScope, orderId: number): Promise<UnattributedRefund[]> {
    const refunds = await this.refunds.forOrder(scope, orderId);
    return refunds.flatMap((r: Refund) =>
      r.unattributed.map((a) => ({
        refundId: r.refundId,
        kind: a.kind,
        amount: a.amount,
        reason: a.reason,
        processedAt: r.processedAt ?? r.platformCreatedAt,
      })),
    );
  }
}
