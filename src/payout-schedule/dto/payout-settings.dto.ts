import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsMoney } from '../../common/http/validators';
import { MAX_HOLD_DAYS } from '../../shops/dto/payout-schedule.dto';

/** PUT /v1/vendors/{id}/payout-settings: replaced as a whole (absent overrides: the shop's). */
export class SetVendorPayoutSettingsDto {
  @ApiProperty({
    description: 'true: scheduled runs skip the vendor (manual batches still pay it)',
    example: false,
  })
  @IsBoolean()
  paused!: boolean;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: MAX_HOLD_DAYS,
    description: "The vendor's own hold in days; null or absent: the shop schedule's",
    example: 14,
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_HOLD_DAYS)
  holdDays?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    description: "The vendor's own minimum payout; null or absent: the shop schedule's",
    example: 100,
  })
  @IsOptional()
  @IsMoney({ min: 0 })
  minimumPayout?: number | null;
}

export class VendorPayoutSettingsDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ example: false })
  paused!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "null: the shop schedule's", example: 14 })
  holdDays!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "null: the shop schedule's", example: null })
  minimumPayout!: number | null;
  @ApiProperty({ description: 'The hold that applies (own, else the shop’s)', example: 14 })
  effectiveHoldDays!: number;
  @ApiProperty({ description: 'The minimum that applies (own, else the shop’s)', example: 50 })
  effectiveMinimumPayout!: number;
}

export class VendorPayoutSettingsEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: VendorPayoutSettingsDto })
  data!: VendorPayoutSettingsDto;
}
