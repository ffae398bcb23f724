import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import type { LineItem } from '../line-items/line-item.schema';
import { LineItemsRepository } from '../line-items/line-items.repository';
import type { OrderSummary } from '../order-data/order-summary.schema';
import { OrderSummariesRepository } from '../order-data/order-summaries.repository';
import { orderObjectId } from '../order-data/order-ids';
import { OrdersRepository } from '../order-data/orders.repository';

const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;
const ORDER_ID_RE = /^[1-9][0-9]{0,15}$/;

/** One order as the caller sees it: its summary (the vendor's part, or the whole order) and rows. */
export interface CallerOrder {
  orderId: number;
  summary: OrderSummary;
  /** Sale and refund rows the caller sees, in the order's row order. */
  lines: LineItem[];
}

/**
 * Finds the order a path id names — our `_id` (24 hex) or the platform's numeric order id — as the
 * caller sees it: 404 for an unknown id, another shop's order, or (vendor scope) an order without a
 * line item of the vendor. One command: the order by its `_id` (a numeric id names the `_id` derived
 * from it, order-ids.ts) with the caller's summary and the order's rows joined to it.
 */
@Injectable()
export class OrderLookup {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly summaries: OrderSummariesRepository,
    private readonly lineItems: LineItemsRepository,
  ) {}

  async orderIdOf(scope: ShopScope, idParam: string): Promise<number> {
    if (OBJECT_ID_RE.test(idParam)) {
      const orderId = await this.orders.orderIdOf(scope, new Types.ObjectId(idParam));
      if (orderId === null) throw new NotFoundError('Order');
      return orderId;
    }
    const n = Number(idParam);
    if (!ORDER_ID_RE.test(idParam) || !Number.isSafeInteger(n)) throw new NotFoundError('Order');
    return n;
  }

  async find(scope: ShopScope, idParam: string): Promise<CallerOrder> {
    const order = await this.orders.withJoined<{ summary: OrderSummary[]; rows: LineItem[] }>(
      scope,
      this.orderRefOf(scope, idParam),
      [this.summaries.callerSummaryJoin('summary', scope), this.lineItems.orderRowsJoin('rows', scope)],
    );
    const summary = order?.summary[0];
    const lines = order ? this.lineItems.callerRows(scope, order.rows) : [];
    if (!order || !summary || !lines.some((l) => l.type !== 'refund')) throw new NotFoundError('Order');
    return { orderId: order.orderId, summary, lines };
  }

  /** Whether this vendor has line items on the order (a shop naming a vendor part). */
  async vendorHasPart(scope: ShopScope, orderId: number): Promise<boolean> {
    return (await this.summaries.findForOrder(scope, orderId)) !== null;
  }

  /** The order `_id` a path id names (404 for one that can name no order). */
  private orderRefOf(scope: ShopScope, idParam: string): Types.ObjectId {
    if (OBJECT_ID_RE.test(idParam)) return new Types.ObjectId(idParam);
    const n = Number(idParam);
    if (!ORDER_ID_RE.test(idParam) || !Number.isSafeInteger(n)) throw new NotFoundError('Order');
    return orderObjectId(scope.shopId, n);
  }
}
