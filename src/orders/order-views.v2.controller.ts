import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import {
  OrderCountsDto,
  OrderCountsEnvelopeDto,
  OrderDetailDto,
  OrderDetailEnvelopeDto,
} from './dto/order-detail.dto';
import { OrderIdParam } from './order-id.param';
import { OrderViewsService } from './order-views.service';

/**
 * The vendor surface's order reads (DESIGN §12), each served without prefix and under /v2: a vendor
 * token sees its own part of its orders, a shop token the whole order or shop; a merchant token 403.
 */
@ApiTags('Orders')
@Controller()
export class OrderViewsV2Controller {
  constructor(private readonly views: OrderViewsService) {}

  @Get(['orders/counts', 'v2/orders/counts'])
  @V2Auth('vendor', 'shop')
  @RequireScope('orders:read')
  @ApiOperationIdsByPath({ '/orders/counts': 'countVendorOrders', '/v2/orders/counts': 'countOrders' })
  @ApiOperation({
    summary: 'How many orders are unfulfilled, partly fulfilled, fulfilled or cancelled',
    description:
      'Vendor token: over the vendor’s orders, by its own sale lines (fulfilled: all of them; partial: some). ' +
      'Shop token: over every order of the shop, by all its lines. Disjoint: a cancelled order counts only ' +
      'as `cancelled`. Each count equals the `totalCount` of the order list filtered by that `fulfillmentStatus`.',
  })
  @ApiOkResponse({ type: OrderCountsEnvelopeDto })
  @ApiV2Errors()
  async counts(@Scope() scope: ShopScope): Promise<V2Envelope<OrderCountsDto>> {
    return ok(await this.views.counts(scope));
  }

  @Get(['orders/:id', 'v2/orders/:id'])
  @V2Auth('vendor', 'shop')
  @RequireScope('orders:read')
  @ApiOperationIdsByPath({ '/orders/{id}': 'getVendorOrder', '/v2/orders/{id}': 'getOrderV2' })
  @ApiOperation({
    summary: 'One order with the caller’s calculated lines',
    description:
      'Vendor token: the order with the vendor’s own sale lines (404 when it has none). Shop token: the ' +
      'order with every sale line; `fulfillmentStatus` then covers all of them.',
  })
  @OrderIdParam()
  @ApiOkResponse({ type: OrderDetailEnvelopeDto })
  @ApiV2Errors(notFound('Order'))
  async detail(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<OrderDetailDto>> {
    return ok(await this.views.detail(scope, id));
  }
}
