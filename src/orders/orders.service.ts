import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { CursorPageQueryDto, readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { toLineItemResponse } from '../line-items/line-item.mapper';
import { LineItemsRepository } from '../line-items/line-items.repository';
import {
  OrderLineItemsResponseDto,
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

  async getLineItems(scope: ShopScope, orderIdParam: string): Promise<OrderLineItemsResponseDto> {
    const orderId = parseOrderId(orderIdParam);
    const items = await this.lineItems.findForOrders(scope, [orderId]);
    if (items.length === 0 && !(await this.orders.exists(scope, orderId))) throw new NotFoundError('Order');
    return { view: 'lineItems', orders: items.map(toLineItemResponse) };
  }

  /** The caller's orders, newest first: the shop's (shop token) or one vendor's (vendor token). */
  async list(scope: ShopScope, query: CursorPageQueryDto): Promise<OrdersPageDto | VendorOrdersPageDto> {
    const context = scope.vendorId ? `orders:${scope.shopId}:${scope.vendorId}` : `orders:${scope.shopId}`;
    const page = await readCursorPage(
      query,
      this.auth.cursorKey,
      context,
      (window) => this.summaries.page(scope, window),
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
