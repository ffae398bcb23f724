import { ApiProperty } from '@nestjs/swagger';

export class ShipmentStatusCountsDto {
  @ApiProperty({ example: 3 }) in_transit!: number;
  @ApiProperty({ example: 1 }) out_for_delivery!: number;
  @ApiProperty({ example: 7 }) delivered!: number;
  @ApiProperty({ example: 0 }) failed_delivery!: number;
  @ApiProperty({ description: 'Fulfilled lines with another status the store platform sent', example: 0 })
  other!: number;
  @ApiProperty({ description: 'Fulfilled lines with no shipment status yet', example: 2 })
  none!: number;
}

export class FulfillmentCountsDto {
  @ApiProperty({ description: 'Every row the filters select', example: 20 }) total!: number;
  @ApiProperty({ example: 13 }) fulfilled!: number;
  @ApiProperty({ example: 7 }) unfulfilled!: number;
  @ApiProperty({
    type: ShipmentStatusCountsDto,
    description: 'The fulfilled rows by shipment status (they add up to `fulfilled`)',
  })
  shipmentStatus!: ShipmentStatusCountsDto;
}

export class FulfillmentStatsDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Mean days from order to fulfillment over the fulfilled rows (2 dp); null when none is fulfilled',
    example: 2.35,
  })
  averageDaysToFulfill!: number | null;
  @ApiProperty({ description: 'Unfulfilled rows whose order was placed more than 7 days ago', example: 4 })
  unfulfilledFor7Days!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'Share of fulfilled rows fulfilled within 7 days of the order, in percent (2 dp); null when none is fulfilled',
    example: 92.31,
  })
  fulfilledOnTimePercentage!: number | null;
}

export class FulfillmentCountsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: FulfillmentCountsDto }) data!: FulfillmentCountsDto;
}

export class FulfillmentStatsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true }) success!: true;
  @ApiProperty({ type: FulfillmentStatsDto }) data!: FulfillmentStatsDto;
}
