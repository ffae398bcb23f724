import { ApiProperty } from '@nestjs/swagger';
import { LineItemDto } from '../../line-items/dto/line-item.dto';

export class OrderCustomerNameDto {
  @ApiProperty({ type: String, nullable: true, example: 'Jane' })
  firstName!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Doe' })
  lastName!: string | null;
}

/** The order of GET /orders/{id}: the caller's view (a vendor's part, or the whole order for the shop). */
export class OrderDetailOrderDto {
  @ApiProperty({ description: 'Order id (the same in every view)', example: '673f1c2b9e1d4a0012345678' })
  _id!: string;
  @ApiProperty({ description: 'Store-platform order id', example: 5549201834154 })
  orderId!: number;
  @ApiProperty({ example: '#1042' })
  orderName!: string;
  @ApiProperty({ example: 1042 })
  orderNumber!: number;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ example: 'paid' })
  financialStatus!: string;
  @ApiProperty({
    enum: ['fulfilled', 'partial', 'unfulfilled'],
    description: 'Over the caller’s sale lines: all fulfilled, some, or none',
    example: 'partial',
  })
  fulfillmentStatus!: string;
  @ApiProperty({ description: 'Whether the order was cancelled on the store platform', example: false })
  cancelled!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The ship-to address as the store platform sent it',
    example: {
      first_name: 'Jane',
      last_name: 'Doe',
      address1: '1 Main St',
      city: 'Springfield',
      zip: '12345',
    },
  })
  shippingAddress!: Record<string, unknown> | null;
  @ApiProperty({ type: OrderCustomerNameDto, description: 'The customer’s name (null parts when unknown)' })
  customer!: OrderCustomerNameDto;
}

export class OrderDetailDto {
  @ApiProperty({ type: OrderDetailOrderDto })
  order!: OrderDetailOrderDto;
  @ApiProperty({
    type: [LineItemDto],
    description:
      'The calculated sale lines (`type: sale`) the caller sees, with their figures, SKU, quantity and ' +
      'fulfillment: a vendor token its own lines, a shop token every line. Refund rows are on the timeline',
  })
  lineItems!: LineItemDto[];
}

export class OrderDetailEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: OrderDetailDto })
  data!: OrderDetailDto;
}

/** GET /orders/counts: disjoint counts (a cancelled order counts only as cancelled). */
export class OrderCountsDto {
  @ApiProperty({ description: 'Not cancelled; none of the caller’s sale lines fulfilled', example: 12 })
  unfulfilled!: number;
  @ApiProperty({ description: 'Not cancelled; some of the caller’s sale lines fulfilled', example: 3 })
  partial!: number;
  @ApiProperty({ description: 'Not cancelled; every one of the caller’s sale lines fulfilled', example: 40 })
  fulfilled!: number;
  @ApiProperty({ description: 'Cancelled on the store platform', example: 1 })
  cancelled!: number;
}

export class OrderCountsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: OrderCountsDto })
  data!: OrderCountsDto;
}
