import { ApiProperty } from '@nestjs/swagger';
import { PAYOUT_STATUSES, PayoutStatus, ROW_TYPES, RowType } from '../line-item.schema';
import { CommissionRuleRefDto } from './commission-rule-ref.dto';
import { LineFiguresDto } from './line-figures.dto';

export class LineItemFulfillmentDto {
  @ApiProperty({ example: 'success' })
  status!: string;
  @ApiProperty({ type: String, nullable: true, example: 'UPS' })
  trackingCompany!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '1Z999AA10123456784' })
  trackingNumber!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
  })
  trackingUrl!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'in_transit, delivered, …',
    example: 'in_transit',
  })
  shipmentStatus!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-22T09:30:00.000Z' })
  createdAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  deliveredAt!: string | null;
}

/** A calculated line item (spec §2.4): identifiers, the order context and every figure (LineFiguresDto). */
export class LineItemDto extends LineFiguresDto {
  @ApiProperty({
    enum: ROW_TYPES,
    description:
      '`sale`: the order line; `refund`: a refund row of it (DESIGN §6: figures negative, pro rata)',
    example: 'sale',
  })
  type!: RowType;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Refund rows: the platform refund id',
    example: null,
  })
  refundId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Refund rows: the refund line item id',
    example: null,
  })
  refundLineItemId!: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Refund rows: the units refunded',
    example: null,
  })
  refundedQuantity!: number | null;
  @ApiProperty({
    description: 'Internal id of the calculated line item',
    example: '6740b9f1c2a4e15b3c9d0a21',
  })
  _id!: string;
  @ApiProperty({ example: 13601741586602 })
  lineItemId!: number;
  @ApiProperty({ example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  orderCreatedAt!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Null while no vendor of that name exists',
    example: '6740b9f1c2a4e15b3c9d0a11',
  })
  vendorId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The line's vendor field, lowercased",
    example: 'acme apparel',
  })
  vendorName!: string | null;
  @ApiProperty({ example: 'Red T-shirt - M' })
  name!: string;
  @ApiProperty({ type: String, nullable: true, example: 'M' })
  variantTitle!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'TSHIRT-RED-M' })
  sku!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: '64-bit platform id, a decimal string (every digit)',
    example: '7513594577066',
  })
  productId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: '64-bit platform id, a decimal string (every digit)',
    example: '42374833356970',
  })
  variantId!: string | null;
  @ApiProperty({ example: 20 })
  price!: number;
  @ApiProperty({ example: 2 })
  quantity!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The commission source (DESIGN §13): `level:type:amount`, e.g. `product:percentage:12`; plus-flat ' +
      'adds `+flat` (`productType:percentage_plus_flat:5+0.30`), a clamp `:min=…` / `:max=…`',
    example: 'vendor:percentage:10',
  })
  commissionPlan!: string | null;
  @ApiProperty({
    type: CommissionRuleRefDto,
    nullable: true,
    description: 'The commission rule the commission came from; null: the SKU record, the vendor, or none',
  })
  commissionRule!: CommissionRuleRefDto | null;
  @ApiProperty({ description: 'salesAfterDiscount − costOfItem', example: 23.5 })
  profit!: number;
  @ApiProperty({ example: 0 })
  paid!: number;
  @ApiProperty({ description: 'payout − paid', example: 32.4 })
  balance!: number;
  @ApiProperty({ enum: PAYOUT_STATUSES, example: 'unpaid' })
  payoutStatus!: PayoutStatus;
  @ApiProperty({ description: 'Paid out: skipped by updates', example: false })
  frozen!: boolean;
  @ApiProperty({ example: 'paid' })
  financialStatus!: string;
  @ApiProperty({ example: false })
  cancelled!: boolean;
  @ApiProperty({ enum: ['fulfilled', 'unfulfilled'], example: 'unfulfilled' })
  fulfillmentStatus!: 'fulfilled' | 'unfulfilled';
  @ApiProperty({ type: LineItemFulfillmentDto, nullable: true })
  fulfillment!: LineItemFulfillmentDto | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:02.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:02.000Z' })
  updatedAt!: string;
}
