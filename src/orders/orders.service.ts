import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import { readCursorPage } from '../common/pagination';
import { parseDateTime } from '../common/dates/date-time';
import type { OrderListFilter } from '../order-data/order-list-filter';
import { OrderListQueryDto } from './dto/order-list-query.dto';
import type { ShopScope } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { toLineItemResponse } from '../line-items/line-item.mapper';
import { LineItemsRepository } from '../line-items/line-items.repository';
import {
  OrderLineItemsResponseDto,
  OrderQueryDto,
  OrdersPageDto,
  RawOrderResponseDto,
  VendorOrdersPageDto,
} from './dto/order.dto';
import { toOrderListItem, toRawOrder } from './order.mapper';
import { OrderSummariesRepository } from '../order-data/order-summaries.repository';
import { OrdersRepository } from '../order-data/orders.repository';
import { RefundsService } from '../refunds/refunds.service';

const ORDER_ID_RE = /^[1-9][0-9]{0,15}$/;

@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly summaries: OrderSummariesRepository,
    private readonly lineItems: LineItemsRepository,
    private readonly refunds: RefundsService,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  /** GET /v1/orders/{orderId}: the raw order, or with `lineItems=true` its calculated line items. */
  get(
    scope: ShopScope,
    orderIdParam: string,
    q: OrderQueryDto,
  ): Promise<RawOrderResponseDto | OrderLineItemsResponseDto> {
    if (q.lineItems === 'true') return this.getLineItems(scope, orderIdParam, q.includeRefunds === 'true');
    if (q.includeRefunds !== undefined) {
      throw new ValidationError('includeRefunds applies only with lineItems=true', {
        fields: { includeRefunds: ['applies only with lineItems=true'] },
      });
    }
    return this.getRaw(scope, orderIdParam);
  }

  async getRaw(scope: ShopScope, orderIdParam: string): Promise<RawOrderResponseDto> {
    const orderId = parseOrderId(orderIdParam);
    const [order, unattributed] = await Promise.all([
      this.orders.findByOrderId(scope, orderId),
      this.refunds.unattributed(scope, orderId),
    ]);
    if (!order) throw new NotFoundError('Order');
    return {
      view: 'order',
      orders: toRawOrder(order),
      unattributedRefunds: unattributed.map((u) => ({ ...u, processedAt: u.processedAt.toISOString() })),
    };
  }

  /**
   * The v1 contract: one row per order line (its sale row), so a client that looks a line up by
   * `lineItemId` reads the sale. Refund rows share their line's `lineItemId` (and sort ahead of
   * `sale` in the store's order), so they come only when asked for, after every sale row.
   */
  async getLineItems(
    scope: ShopScope,
    orderIdParam: string,
    includeRefunds = false,
  ): Promise<OrderLineItemsResponseDto> {
    const orderId = parseOrderId(orderIdParam);
    const rows = await this.lineItems.findForOrders(scope, [orderId]);
    if (rows.length === 0 && !(await this.orders.exists(scope, orderId))) throw new NotFoundError('Order');
    const sales = rows.filter((r) => r.type !== 'refund');
    const refunds = includeRefunds ? rows.filter((r) => r.type === 'refund') : [];
    return { view: 'lineItems', orders: [...sales, ...refunds].map(toLineItemResponse) };
  }

  /** The caller's orders, newest first: the shop's (shop token) or one vendor's (vendor token). */
  async list(scope: ShopScope, query: OrderListQueryDto): Promise<OrdersPageDto | VendorOrdersPageDto> {
    const context = scope.vendorId ? `orders:${scope.shopId}:${scope.vendorId}` : `orders:${scope.shopId}`;
    const filter = listFilter(query);
    const page = await readCursorPage(
      query,
      this.auth.cursorKey,
      context,
      (window) => this.summaries.page(scope, window, filter),
      (r) => ({ t: new Date(r.orderCreatedAt).getTime(), id: String(r._id) }),
    );
    const items = page.items.map(toOrderListItem);
    const { pageInfo, totalCount } = page;
    return scope.vendorId
      ? { view: 'vendor', items, pageInfo, totalCount }
      : { view: 'shop', orders: items, pageInfo, totalCount };
  }
}

/** A store-platform order id in a path; anything else can match nothing (404, never 500). */
function parseOrderId(param: string): number {
  if (!ORDER_ID_RE.test(param)) throw new NotFoundError('Order');
  const n = Number(param);
  if (!Number.isSafeInteger(n)) throw new NotFoundError('Order');
  return n;
}

const ORDER_NUMBER_SEARCH = /^#?([0-9]{1,15})$/;

/**
 * The list's filters (validated by OrderListQueryDto). A search names one order (its number, `#1001`
 * or `1001`, else its exact name), so it combines with the date range only: each combination is
 * one index's equality prefix (order-summary.schema.ts).
 */
export function listFilter(q: OrderListQueryDto): OrderListFilter {
  const min = q.createdAtMin !== undefined ? parseDateTime(q.createdAtMin)! : undefined;
  const max = q.createdAtMax !== undefined ? parseDateTime(q.createdAtMax)! : undefined;
  if (min && max && min.getTime() > max.getTime()) {
    throw new ValidationError('createdAtMin is after createdAtMax', {
      fields: { createdAtMin: ['is after createdAtMax'] },
    });
  }
  const filter: OrderListFilter = {
    fulfillmentStatus: q.fulfillmentStatus,
    financialStatus: q.financialStatus,
    createdAtMin: min,
    createdAtMax: max,
  };
  if (q.search === undefined) return filter;
  if (q.fulfillmentStatus !== undefined || q.financialStatus !== undefined) {
    throw new ValidationError('search combines with createdAtMin and createdAtMax only', {
      fields: { search: ['cannot be combined with fulfillmentStatus or financialStatus'] },
    });
  }
  const search = q.search.trim();
  if (search === '') {
    throw new ValidationError('search must not be blank', { fields: { search: ['must not be blank'] } });
  }
  const n = ORDER_NUMBER_SEARCH.exec(search);
  return n ? { ...filter, orderNumber: Number(n[1]) } : { ...filter, orderName: search };
}
