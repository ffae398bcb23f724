import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import {
  OrdersListEnvelopeDto,
  OrdersPageDto,
  VendorOrdersPageDto,
  VendorOrdersPageEnvelopeDto,
} from './dto/order.dto';
import { OrderListQueryDto } from './dto/order-list-query.dto';
import { OrdersService } from './orders.service';

/**
 * DESIGN §3: `GET /v2/orders` answers a shop token with the shop's orders and a vendor token with
 * its own; `GET /orders` is the vendor surface; a merchant token gets 403 on both.
 */
@ApiTags('Orders')
@Controller()
export class OrdersV2Controller {
  constructor(private readonly orders: OrdersService) {}

  @Get('v2/orders')
  @V2Auth('shop', 'vendor')
  @RequireScope('orders:read')
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'Orders, newest first (cursor paging)',
    description:
      'Shop token: `{view: "shop", orders, pageInfo, totalCount}` over every order of the shop. Vendor token: ' +
      '`{view: "vendor", items, pageInfo, totalCount}` over the vendor’s own orders, totals covering its line ' +
      'items only. ' +
      'Filters (`fulfillmentStatus`, `financialStatus`, `createdAtMin`/`createdAtMax`, `search`) combine, ' +
      'except `search` with a status filter (422). ' +
      'A merchant token is refused with 403; a vendor token without `orders:read` too.',
  })
  @ApiOkResponse({ type: OrdersListEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: OrderListQueryDto,
  ): Promise<V2Envelope<OrdersPageDto | VendorOrdersPageDto>> {
    return ok(await this.orders.list(scope, query));
  }

  @Get('orders')
  @V2Auth('vendor')
  @RequireScope('orders:read')
  @ApiOperation({
    operationId: 'listVendorOrders',
    summary: "The vendor's own orders, newest first (cursor paging)",
    description:
      'Filters (`fulfillmentStatus`, `financialStatus`, `createdAtMin`/`createdAtMax`, `search`) combine, ' +
      'except `search` with a status filter (422). Totals cover the vendor’s line items only.',
  })
  @ApiOkResponse({ type: VendorOrdersPageEnvelopeDto })
  @ApiV2Errors(422)
  async vendorList(
    @Scope() scope: ShopScope,
    @Query() query: OrderListQueryDto,
  ): Promise<V2Envelope<OrdersPageDto | VendorOrdersPageDto>> {
    return ok(await this.orders.list(scope, query));
  }
}
