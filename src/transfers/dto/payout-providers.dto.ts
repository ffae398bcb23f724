import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PROVIDER_MODES, type ProviderMode } from '../payout-provider.schema';

const WRITE_ONLY =
  'Write-only: stored encrypted (AES-256-GCM) and never returned or logged; omitted: the stored value is kept; ' +
  '`null`: removed.';

export class SetPayoutProvidersDto {
  @ApiPropertyOptional({
    enum: PROVIDER_MODES,
    description: 'sandbox (default; test keys, PayPal sandbox) or live (live keys only)',
    example: 'sandbox',
  })
  @IsOptional()
  @IsIn(PROVIDER_MODES)
  mode?: ProviderMode;

  @ApiPropertyOptional({
    description: 'Currency of this shop’s transfers (ISO 4217, upper case; default USD)',
    pattern: '^[A-Z]{3}$',
    minLength: 3,
    maxLength: 3,
    example: 'USD',
  })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a 3-letter ISO 4217 code in upper case' })
  currency?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `Stripe secret (sk_…) or restricted (rk_…) key of the platform account. ${WRITE_ONLY}`,
    pattern: '^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$',
    maxLength: 255,
    example: 'sk_test_51Nv0FGQ9RKHgCVdKexample',
  })
  @IsOptional()
  @Matches(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,247}$/, {
    message: 'stripeSecretKey must be a Stripe secret (sk_test_…/sk_live_…) or restricted (rk_…) key',
  })
  stripeSecretKey?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `Signing secret of the Stripe webhook endpoint (whsec_…) that sends to POST /webhooks/stripe. ${WRITE_ONLY}`,
    pattern: '^whsec_[A-Za-z0-9+/=]{8,250}$',
    maxLength: 256,
    example: 'whsec_examplesigningsecret0123456789',
  })
  @IsOptional()
  @Matches(/^whsec_[A-Za-z0-9+/=]{8,250}$/, {
    message: 'stripeWebhookSecret must be a whsec_… signing secret',
  })
  stripeWebhookSecret?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `PayPal REST app client id. ${WRITE_ONLY}`,
    pattern: '^[A-Za-z0-9_-]{8,128}$',
    maxLength: 128,
    example: 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{8,128}$/, { message: 'paypalClientId must be 8-128 letters, digits, _ or -' })
  paypalClientId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `PayPal REST app secret. ${WRITE_ONLY}`,
    pattern: '^[A-Za-z0-9_-]{8,128}$',
    maxLength: 128,
    example: 'EFgHiJkLmNoPqRsTuVwXyZ0123456789example',
  })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{8,128}$/, { message: 'paypalClientSecret must be 8-128 letters, digits, _ or -' })
  paypalClientSecret?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Id of the PayPal webhook that sends to POST /webhooks/paypal (used to verify its deliveries)',
    pattern: '^[A-Za-z0-9-]{1,64}$',
    maxLength: 64,
    example: '8PT597110X687430LKGECATA',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9-]{1,64}$/, { message: 'paypalWebhookId must be 1-64 letters, digits or -' })
  paypalWebhookId?: string | null;
}

export class StripeProviderDto {
  @ApiProperty({ example: true })
  secretKeySet!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The key’s kind and last 4 characters only, e.g. sk_test_…wxyz',
    example: 'sk_test_…mple',
  })
  secretKeyHint!: string | null;
  @ApiProperty({ example: true })
  webhookSecretSet!: boolean;
}

export class PaypalProviderDto {
  @ApiProperty({ example: true })
  clientIdSet!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Last 4 characters of the client id',
    example: '…6789',
  })
  clientIdHint!: string | null;
  @ApiProperty({ example: true })
  clientSecretSet!: boolean;
  @ApiProperty({ type: String, nullable: true, example: '8PT597110X687430LKGECATA' })
  webhookId!: string | null;
}

export class PayoutProvidersDto {
  @ApiProperty({ enum: PROVIDER_MODES, example: 'sandbox' })
  mode!: ProviderMode;
  @ApiProperty({ example: 'USD' })
  currency!: string;
  @ApiProperty({ type: StripeProviderDto })
  stripe!: StripeProviderDto;
  @ApiProperty({ type: PaypalProviderDto })
  paypal!: PaypalProviderDto;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-21T10:00:00.000Z' })
  updatedAt!: string | null;
}
