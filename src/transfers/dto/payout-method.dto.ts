import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PAYPAL_RECIPIENT_TYPES, type PaypalRecipientType } from '../payout-method.schema';
import { PAYOUT_METHOD_TYPES, type PayoutMethodType } from '../transfer-states';

export class SetPayoutMethodDto {
  @ApiProperty({
    enum: PAYOUT_METHOD_TYPES,
    description:
      '`manual` (default: an operator pays by bank and records the reference), `stripe_connect` (a Stripe ' +
      'transfer to `accountId`) or `paypal` (a PayPal payout to `receiver`)',
    example: 'stripe_connect',
  })
  @IsIn(PAYOUT_METHOD_TYPES)
  type!: PayoutMethodType;

  @ApiPropertyOptional({
    description: 'stripe_connect only, required there: the vendor’s connected account id',
    pattern: '^acct_[A-Za-z0-9]{1,64}$',
    maxLength: 69,
    example: 'acct_1Nv0FGQ9RKHgCVdK',
  })
  @IsOptional()
  @IsString()
  @MaxLength(69)
  accountId?: string;

  @ApiPropertyOptional({
    description:
      'paypal only, required there: an email address (EMAIL), a 13-character PayPal payer id (PAYPAL_ID) ' +
      'or a phone number in international form, digits only with an optional leading + (PHONE)',
    maxLength: 127,
    example: 'vendor@example.com',
  })
  @IsOptional()
  @IsString()
  @MaxLength(127)
  receiver?: string;

  @ApiPropertyOptional({
    enum: PAYPAL_RECIPIENT_TYPES,
    description: 'paypal only, required there: what `receiver` is',
    example: 'EMAIL',
  })
  @IsOptional()
  @IsIn(PAYPAL_RECIPIENT_TYPES)
  recipientType?: PaypalRecipientType;
}

export class PayoutMethodDto {
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ enum: PAYOUT_METHOD_TYPES, example: 'paypal' })
  type!: PayoutMethodType;
  @ApiProperty({ type: String, nullable: true, example: null })
  accountId!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'vendor@example.com' })
  receiver!: string | null;
  @ApiProperty({ enum: PAYPAL_RECIPIENT_TYPES, nullable: true, example: 'EMAIL' })
  recipientType!: PaypalRecipientType | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the method was last set (null: never set, the vendor is paid manually)',
    example: '2026-11-21T10:00:00.000Z',
  })
  updatedAt!: string | null;
}

export class PayoutMethodEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: PayoutMethodDto })
  data!: PayoutMethodDto;
}
