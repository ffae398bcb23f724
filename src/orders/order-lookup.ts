import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import type { LineItem } from '../line-items/line-item.schema';
import { LineItemsRepository } from '../line-items/line-items.repository';
import type { OrderSummary } from '../order-data/order-summary.schema';
import { OrderSummariesRepository } from '../order-data/order-summaries.repository';
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
 * line item of the vendor. At most two reads one after the other: the order id of an `_id`, then
 * the summary and the rows side by side.
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
    const orderId = await this.orderIdOf(scope, idParam);
    const [summary, lines] = await Promise.all([
      this.summaries.findForOrder(scope, orderId),
      this.lineItems.findOrderRows(scope, orderId),
    ]);
    if (!summary || !lines.some((l) => l.type !== 'refund')) throw new NotFoundError('Order');
    return { orderId, summary, lines };
  }

  /** Whether this vendor has line items on the order (a shop naming a vendor part). */
  async vendorHasPart(scope: ShopScope, orderId: number): Promise<boolean> {
    return (await this.summaries.findForOrder(scope, orderId)) !== null;
  }
}
