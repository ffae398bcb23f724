import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { orderObjectId, vendorOrderSummaryId } from '../orders/order-ids';
import { OrderSummariesRepository, OrderSummaryWrite } from '../orders/order-summaries.repository';
import type { OrderSummary } from '../orders/order-summary.schema';
import {
  buildOrderSummaries,
  SummaryLine,
  SummaryOrderContext,
  SummaryTotals,
} from '../orders/order-summary.builder';
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
      await this.summaries.replaceForOrders(scope, [orderId], docs, true);
    }
  }

  async write(
    scope: ShopScope,
    orderIds: number[],
    docs: OrderSummaryWrite[],
    prune: boolean,
  ): Promise<void> {
    await this.summaries.replaceForOrders(scope, orderIds, docs, prune);
  }

  /**
   * Rebuilds the summaries of these orders from their stored line items (one read of line items and
   * one of summaries per chunk of orders) and writes only the summaries whose content changed;
   * vendor summaries no line item backs any more are removed. (`_prune` is accepted for callers
   * written against the earlier signature; stale summaries are now found exactly.)
   */
  async refresh(scope: ShopScope, orderIds: number[], _prune?: boolean): Promise<void> {
    const unique = [...new Set(orderIds)];
    for (let i = 0; i < unique.length; i += REFRESH_CHUNK) {
      const chunk = unique.slice(i, i + REFRESH_CHUNK);
      const [lines, existing] = await Promise.all([
        this.lineItems.findForOrders(scope, chunk),
        this.summaries.findForOrders(scope, chunk),
      ]);
      const current = new Map(existing.map((s) => [String(s._id), s]));
      const byOrder = new Map<number, LineItem[]>();
      for (const l of lines) {
        const list = byOrder.get(l.orderId);
        if (list) list.push(l);
        else byOrder.set(l.orderId, [l]);
      }
      const docs: OrderSummaryWrite[] = [];
      for (const [orderId, orderLines] of byOrder) {
        const first = orderLines[0];
        const shopLevel = current.get(String(orderObjectId(scope.shopId, orderId)));
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
              notes: shopLevel?.notes ?? null,
              customer: shopLevel?.customer ?? null,
            },
            orderLines,
          ),
        );
      }
      const built = new Set(docs.map((d) => String(d._id)));
      const stale = existing.filter((s) => s.vendorId && !built.has(String(s._id))).map((s) => s._id);
      await this.summaries.upsertMany(
        scope,
        docs.filter((d) => !sameSummary(d, current.get(String(d._id)))),
      );
      await this.summaries.deleteByIds(scope, stale);
    }
  }
}

/** Whether a stored summary already holds exactly what would be written. */
function sameSummary(next: OrderSummaryWrite, stored: OrderSummary | undefined): boolean {
  if (!stored) return false;
  return (Object.keys(next) as Array<keyof OrderSummaryWrite>).every((k) =>
    isDeepStrictEqual(normalise(next[k]), normalise(stored[k as keyof OrderSummary])),
  );
}

function normalise(v: unknown): unknown {
  if (v instanceof Date) return v.getTime();
  if (v instanceof Types.ObjectId) return v.toHexString();
  if (Array.isArray(v)) return v.map(normalise);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, normalise(x)]),
    );
  }
  return v ?? null;
}
