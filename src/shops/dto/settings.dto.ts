import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/http/validators';
import { PayoutScheduleDto, PayoutScheduleInputDto } from './payout-schedule.dto';

const rate = (description: string, example: number) =>
  ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 100,
    description: `${description} (percent: 18 means 18 %)`,
    example,
  });
/** A percentage 0–100 with at most 4 decimals (validated without class-validator's maxDecimalPlaces, which throws on 5e-324). */
const percent = { maxDecimals: 4, min: 0, max: 100 };

/** PUT /v1/shop/settings: only the given settings change. */
export class UpdateShopSettingsDto {
  @rate('Tax charged on the commission', 18)
  @IsOptional()
  @IsAmount(percent)
  taxOnCommissionRate?: number;

  @rate('Tax collected at source, on sales after discount', 1)
  @IsOptional()
  @IsAmount(percent)
  tcsRate?: number;

  @rate('Global deduction, on sales after discount', 2)
  @IsOptional()
  @IsAmount(percent)
  globalDeductionRate?: number;

  @ApiPropertyOptional({ description: "Add the line's shipping share to the vendor payout", example: true })
  @IsOptional()
  @IsBoolean()
  payShippingToVendor?: boolean;

  @ApiPropertyOptional({ description: "Add the line's tax to the vendor payout", example: false })
  @IsOptional()
  @IsBoolean()
  payTaxToVendor?: boolean;

  @ApiPropertyOptional({
    description:
      'Payouts skip vendors whose tax profile is incomplete (eligibility reason `tax_profile_incomplete`)',
    example: false,
  })
  @IsOptional()
  @IsBoolean()
  requireCompleteTaxProfile?: boolean;

  @ApiPropertyOptional({
    type: PayoutScheduleInputDto,
    description: 'The payout schedule (DESIGN §15), replaced as a whole',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayoutScheduleInputDto)
  payoutSchedule?: PayoutScheduleInputDto;
}

/** The settings that feed the money calculation (DESIGN §6); all default to 0 / false. */
export class ShopSettingsDto {
  @ApiProperty({ example: 18 })
  taxOnCommissionRate!: number;
  @ApiProperty({ example: 1 })
  tcsRate!: number;
  @ApiProperty({ example: 2 })
  globalDeductionRate!: number;
  @ApiProperty({ example: true })
  payShippingToVendor!: boolean;
  @ApiProperty({ example: false })
  payTaxToVendor!: boolean;
  @ApiProperty({ example: false })
  requireCompleteTaxProfile!: boolean;
  @ApiProperty({ type: PayoutScheduleDto })
  payoutSchedule!: PayoutScheduleDto;
}

export class ShopSettingsResponseDto {
  @ApiProperty({ type: ShopSettingsDto })
  settings!: ShopSettingsDto;
}

export class UpdatedShopSettingsResponseDto {
  @ApiProperty({ example: 'Settings updated; they apply to new orders and to recalculations' })
  message!: string;
  @ApiProperty({ type: ShopSettingsDto })
  settings!: ShopSettingsDto;
}
