import { ApiProperty } from '@nestjs/swagger';
import { LineItemDto } from '../../line-items/dto/line-item.dto';

/** One vendor on a received order. */
export class OrderVendorDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '6740b9f1c2a4e15b3c9d0a21',
    description: 'Null: no vendor of the shop has this name yet',
  })
  vendorId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Acme Tees' }) vendorName!: string | null;
  @ApiProperty({ example: 2 }) lineItemCount!: number;
}

/** `data.object` of `order.received`: the order as it first arrived, with the vendors on it. */
export class OrderReceivedDto {
  @ApiProperty({ example: '5549201834154', description: 'The store platform order id (a string: 64-bit)' })
  orderId!: string;
  @ApiProperty({ example: '#1001' }) orderName!: string;
  @ApiProperty({ example: 1001 }) orderNumber!: number;
  @ApiProperty({ type: String, format: 'date-time' }) orderCreatedAt!: string;
  @ApiProperty({ example: 'paid' }) financialStatus!: string;
  @ApiProperty({ example: false }) cancelled!: boolean;
  @ApiProperty({ example: 3 }) lineItemCount!: number;
  @ApiProperty({ type: [OrderVendorDto] }) vendors!: OrderVendorDto[];
}

/** `data.object` of `refund.recorded`: one vendor's refund rows just cut from one order. */
export class RefundRecordedDto {
  @ApiProperty({ example: '5549201834154' }) orderId!: string;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' }) vendorId!: string;
  @ApiProperty({ type: [String], example: ['929361463'] }) refundIds!: string[];
  @ApiProperty({
    description: 'Σ payout of the rows (≤ 0: what is clawed back from the vendor)',
    example: -27,
  })
  payout!: number;
  @ApiProperty({ type: [LineItemDto], description: 'The refund rows (`type: refund`), negative figures' })
  refundRows!: LineItemDto[];
}
