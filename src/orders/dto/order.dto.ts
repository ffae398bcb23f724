import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageInfoDto } from '../../common/pagination';
import { LineItemDto } from '../../line-items/dto/line-item.dto';

export class OrderQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true` answers the calculated line items of the order instead of the raw order',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  lineItems?: 'true' | 'false';

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description:
      'With `lineItems=true` only: `true` also lists the order’s refund rows (`type: refund`, negative ' +
      'figures, the refunded units in `refundedQuantity`) after every sale row. Default `false`: one row ' +
      'per order line, its sale row, so a lookup by `lineItemId` finds exactly one row',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  includeRefunds?: 'true' | 'false';
}

export class CustomerSummaryDto {
  @ApiProperty({ type: Number, nullable: true, example: 6940695429290 })
  id!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'jane@example.com' })
  email!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Jane' })
  firstName!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Doe' })
  lastName!: string | null;
}

/** An order in a V2 list (spec §2.10). Totals cover the caller's view: the whole order, or one vendor's lines. */
export class OrderListItemDto {
  @ApiProperty({
    description: 'Order id (the same in the shop and vendor views)',
    example: '673f1c2b9e1d4a0012345678',
  })
  _id!: string;
  @ApiProperty({ description: 'Store-platform order id', example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ example: 3 })
  totalQuantity!: number;
  @ApiProperty({ example: 2 })
  lineItemCount!: number;
  @ApiProperty({ example: 60 })
  totalSales!: number;
  @ApiProperty({ description: 'Sales after discount', example: 56 })
  totalNetSales!: number;
  @ApiProperty({ example: 20 })
  totalCostOfItem!: number;
  @ApiProperty({ description: 'totalNetSales − totalCostOfItem', example: 36 })
  totalProfit!: number;
  @ApiProperty({ example: 5.6 })
  totalCommission!: number;
  @ApiProperty({ example: 50.4 })
  totalPayout!: number;
  @ApiProperty({
    type: [String],
    description: 'Distinct per-line fulfillment statuses',
    example: ['fulfilled', 'unfulfilled'],
  })
  status!: string[];
  @ApiProperty({ enum: ['fulfilled', 'partial', 'unfulfilled'], example: 'partial' })
  fulfillmentStatus!: string;
  @ApiProperty({ enum: ['paid', 'unpaid', 'partial'], example: 'unpaid' })
  vendorPayoutStatus!: string;
  @ApiProperty({ example: 'paid' })
  financialStatus!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'First fulfillment',
    example: '2026-11-22T09:30:00.000Z',
  })
  shipDate!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last delivery reported',
    example: null,
  })
  deliveryDate!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Leave at the back door' })
  notes!: string | null;
  @ApiProperty({ type: CustomerSummaryDto, nullable: true })
  customer!: CustomerSummaryDto | null;
}

export class OrdersPageDto {
  @ApiProperty({
    enum: ['shop'],
    description: 'Which view this page is: the shop’s (every order, whole-order totals)',
  })
  view!: 'shop';
  @ApiProperty({ type: [OrderListItemDto] })
  orders!: OrderListItemDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 42 })
  totalCount!: number;
}

export class VendorOrdersPageDto {
  @ApiProperty({
    enum: ['vendor'],
    description: 'Which view this page is: one vendor’s (its orders, its lines’ totals)',
  })
  view!: 'vendor';
  @ApiProperty({
    type: [OrderListItemDto],
    description: "The vendor's orders; totals cover its own line items only",
  })
  items!: OrderListItemDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ example: 7 })
  totalCount!: number;
}

/** `GET /v2/orders`: the shop's or the vendor's page, told apart by `data.view`. */
@ApiExtraModels(OrdersPageDto, VendorOrdersPageDto)
export class OrdersListEnvelopeDto {
  @ApiProperty({ enum: [true] })
  success!: true;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(OrdersPageDto) }, { $ref: getSchemaPath(VendorOrdersPageDto) }],
    discriminator: {
      propertyName: 'view',
      mapping: { shop: getSchemaPath(OrdersPageDto), vendor: getSchemaPath(VendorOrdersPageDto) },
    },
    description: 'A shop token gets the shop’s view (`view: shop`), a vendor token its own (`view: vendor`)',
  })
  data!: OrdersPageDto | VendorOrdersPageDto;
}

export class VendorOrdersPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorOrdersPageDto })
  data!: VendorOrdersPageDto;
}

export class RawOrderResponseDto {
  @ApiProperty({ enum: ['order'], description: 'Which answer this is: the raw order (no `lineItems=true`)' })
  view!: 'order';
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The order as the store platform last sent it, with `_id`, `orderId`, `orderNumber` and `shopId`',
    example: {
      _id: '673f1c2b9e1d4a0012345678',
      orderId: 5549201834154,
      orderNumber: 1042,
      shopId: '6740b9f1c2a4e15b3c9d0a10',
      name: '#1042',
      financial_status: 'paid',
      line_items: [
        { id: 13601741586602, sku: 'TSHIRT-RED-M', vendor: 'Acme Apparel', price: '20.00', quantity: 2 },
      ],
    },
  })
  orders!: Record<string, unknown>;
  @ApiProperty({
    type: () => [UnattributedRefundDto],
    description:
      'Refund amounts tied to no line item (a shipping refund, a refund discrepancy): recorded on the ' +
      'order, they change no vendor figure',
  })
  unattributedRefunds!: UnattributedRefundDto[];
}

export class UnattributedRefundDto {
  @ApiProperty({ description: 'Store-platform refund id (a string: every digit kept)', example: '929361464' })
  refundId!: string;
  @ApiProperty({ description: 'shipping_refund or refund_discrepancy', example: 'shipping_refund' })
  kind!: string;
  @ApiProperty({ description: 'As the platform sent it (a refund of shipping is negative)', example: -5 })
  amount!: number;
  @ApiProperty({ type: String, nullable: true, example: 'Shipping refund' })
  reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-20T15:05:00.000Z' })
  processedAt!: string;
}

export class OrderLineItemsResponseDto {
  @ApiProperty({
    enum: ['lineItems'],
    description: 'Which answer this is: the calculated line items (`lineItems=true`)',
  })
  view!: 'lineItems';
  @ApiProperty({
    type: [LineItemDto],
    description:
      'The calculated line items of the order: one sale row per order line (`type: sale`), by line; with ' +
      '`includeRefunds=true` its refund rows (`type: refund`) follow, by line and refund',
  })
  orders!: LineItemDto[];
}
