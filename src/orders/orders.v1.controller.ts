import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { OrderLineItemsResponseDto, OrderQueryDto, RawOrderResponseDto } from './dto/order.dto';
import { OrdersService } from './orders.service';

@ApiTags('Orders')
@V1Auth('shop')
@ApiExtraModels(RawOrderResponseDto, OrderLineItemsResponseDto)
@Controller('v1/orders')
export class OrdersV1Controller {
  constructor(private readonly orders: OrdersService) {}

  @Get(':orderId')
  @ApiOperation({
    operationId: 'getOrder',
    summary: 'One order: the raw order, or with lineItems=true its calculated line items',
    description:
      '`lineItems=true` answers one row per order line (its sale row, `type: sale`); `includeRefunds=true` ' +
      'adds the refund rows (`type: refund`) after them. `includeRefunds` without `lineItems=true` → 422.',
  })
  @ApiParam({
    name: 'orderId',
    description: 'Store-platform (numeric) order id; anything else answers 404',
    example: '5549201834154',
    schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$', maxLength: 16 },
  })
  @ApiOkResponse({
    description:
      '`{view: "order", orders: raw order}`, or with lineItems=true `{view: "lineItems", orders: [calculated line items]}`',
    schema: {
      oneOf: [
        { $ref: getSchemaPath(RawOrderResponseDto) },
        { $ref: getSchemaPath(OrderLineItemsResponseDto) },
      ],
      discriminator: {
        propertyName: 'view',
        mapping: {
          order: getSchemaPath(RawOrderResponseDto),
          lineItems: getSchemaPath(OrderLineItemsResponseDto),
        },
      },
    },
  })
  @ApiV1Errors(notFound('Order'), 422)
  get(
    @Scope() scope: ShopScope,
    @Param('orderId') orderId: string,
    @Query() query: OrderQueryDto,
  ): Promise<RawOrderResponseDto | OrderLineItemsResponseDto> {
    return this.orders.get(scope, orderId, query);
  }
}
