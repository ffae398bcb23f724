import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { type ShopScope, shopScope } from '../common/tenancy';
import { orderObjectId, vendorOrderSummaryId } from '../order-data/order-ids';
import { OrderSummariesRepository, OrderSummaryWrite } from '../order-data/order-summaries.repository';
import {
  buildOrderSummaries,
  SummaryLine,
  SummaryOrderContext,
  SummaryTotals,
} from '../order-data/order-summary.builder';
import type { LineItem } from './line-item.schema';
import { LineItemsRepository } from './line-items.repository';

const REFRESH_CHUNK = 500;

/**
 * Keeps the materialised order summaries in step with line items: every write path (ingestion,
 * updates, recalculation, fulfillments) ends by handing its orders here.
 */
@Injectable()
export class OrderSummaryRefresher {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly summaries: OrderSummariesRepository,
  ) {}

  /** The documents for one order whose context and complete line set the caller holds. */
  docsFor(scope: ShopScope, ctx: SummaryOrderContext, lines: SummaryLine[]): OrderSummaryWrite[] {
    const orderRef = orderObjectId(scope.shopId, ctx.orderId);
    const parts = buildOrderSummaries(lines);
    const doc = (
      id: Types.ObjectId,
      vendorId: Types.ObjectId | null,
      totals: SummaryTotals,
    ): OrderSummaryWrite => ({
      _id: id,
      vendorId,
      orderRef,
      orderId: ctx.orderId,
      orderName: ctx.orderName,
      orderNumber: ctx.orderNumber,
      orderCreatedAt: ctx.orderCreatedAt,
      financialStatus: ctx.financialStatus,
      cancelled: ctx.cancelled,
      notes: ctx.notes,
      customer: ctx.customer,
      ...totals,
    });
    return [
      doc(orderRef, null, parts.shop),
      ...parts.vendors.map((v) =>
        doc(
          vendorOrderSummaryId(scope.shopId, ctx.orderId, v.vendorId),
          new Types.ObjectId(v.vendorId),
          v.totals,
        ),
      ),
    ];
  }

  /** First summaries of a new order: a plain insert, or a replace when they already exist. */
  async writeNew(scope: ShopScope, orderId: number, docs: OrderSummaryWrite[]): Promise<void> {
    if (!(await this.summaries.insertNew(scope, docs))) {
      await this.summaries.sync(scope, [orderId], docs, true);
    }
  }

  async write(
    scope: ShopScope,
    orderIds: number[],
    docs: OrderSummaryWrite[],
    prune: boolean,
  ): Promise<void> {
    await this.summaries.sync(scope, orderIds, docs, prune);
  }

  /**
   * Rebuilds the summaries of these orders from their stored line items: one read of line items and
   * one bulk write per chunk of orders. `vendorsChanged` (a line item changed vendor): vendor
   * summaries no line item backs any more are removed too. `onlyVendors` (a write that changed the
   * lines of these vendors only, no order context: a fulfilment): the shop-level summaries and
   * those vendors' are written, the other vendors' summaries — built from lines that did not change —
   * are left as stored (a 100-line vendor fulfilment over 50 three-vendor orders: 100 statements
   * instead of 150). The order's notes and customer stay as ingestion wrote them.
   */
  async refresh(
    scope: ShopScope,
    orderIds: number[],
    opts: { vendorsChanged?: boolean; onlyVendors?: Iterable<unknown> } = {},
  ): Promise<void> {
    // A prune deletes the vendor summaries not written: with it, every summary is written.
    const only = opts.onlyVendors && !opts.vendorsChanged ? new Set([...opts.onlyVendors].map(String)) : null;
    const written = (d: OrderSummaryWrite) => !only || d.vendorId === null || only.has(String(d.vendorId));
    // An order's summary covers every vendor's lines: a vendor caller's scope must not narrow the
    // read (it would write the summary from that vendor's lines alone).
    scope = shopScope(scope.shopId);
    const unique = [...new Set(orderIds)];
    for (let i = 0; i < unique.length; i += REFRESH_CHUNK) {
      const chunk = unique.slice(i, i + REFRESH_CHUNK);
      const lines = await this.lineItems.findForOrders(scope, chunk);
      const byOrder = new Map<number, LineItem[]>();
      for (const l of lines) {
        const list = byOrder.get(l.orderId);
        if (list) list.push(l);
        else byOrder.set(l.orderId, [l]);
      }
      const docs: OrderSummaryWrite[] = [];
      for (const [orderId, orderLines] of byOrder) {
        // The order context from a sale row: a refund row carries its own date and status.
        const first = orderLines.find((l) => l.type !== 'refund') ?? orderLines[0];
        docs.push(
          ...this.docsFor(
            scope,
            {
              orderId,
              orderName: first.orderName,
              orderNumber: first.orderNumber,
              orderCreatedAt: first.orderCreatedAt,
              financialStatus: first.financialStatus,
              cancelled: first.cancelled,
            },
            orderLines,
          ).filter(written),
        );
      }
      await this.summaries.sync(scope, [...byOrder.keys()], docs, opts.vendorsChanged === true);
    }
  }
}
