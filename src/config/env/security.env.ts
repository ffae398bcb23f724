import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import type { ServerEnv } from './server.env';

/** Secrets, request rate limits and the sign-in policy. (Part of EnvironmentVariables, env.validation.ts.) */
export class SecurityEnv {
  /**
   * Required (32+ characters) in production. Elsewhere, when unset, a random secret is generated at
   * first start and kept in `MP_DATA_DIR/jwt-secret` (mode 0600); there is no built-in secret.
   */
  @ValidateIf((env: ServerEnv & SecurityEnv) => env.NODE_ENV === 'production' || env.JWT_SECRET !== undefined)
  @IsString({ message: 'is required when NODE_ENV=production' })
  @MinLength(32, { message: 'must be at least 32 characters' })
  JWT_SECRET?: string;

  /** 32-byte key (64 hex chars) that encrypts secrets at rest, such as store-platform access tokens. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  DATA_ENCRYPTION_KEY?: string;

  /** Requests per minute per shop token (the shop). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_SHOP_PER_MINUTE = 100;

  /** Requests per minute per merchant token (its merchant key). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_MERCHANT_PER_MINUTE = 100;

  /** Requests per minute per vendor token (its portal user). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_VENDOR_PER_MINUTE = 100;

  /** Sign-in attempts per minute per client address (all sign-in endpoints together). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  RATE_LIMIT_SIGN_IN_PER_ADDRESS = 20;

  /**
   * Failed sign-ins allowed per account (shop domain; shop + email; merchant key) and client
   * address (IPv6 by /64) within 15 minutes; then that address waits (429) — never the account.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  SIGN_IN_FAILURES_PER_ADDRESS = 5;

  /** Failed sign-ins allowed per account and client address within 24 hours. */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY = 20;

  /**
   * Failed sign-ins for one account from all addresses within an hour after which it counts as
   * under attack: each address then gets one failure per 15 minutes for it (the owner still signs in).
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR = 100;

  /** Previous DATA_ENCRYPTION_KEY during a key rotation: values sealed under it still decrypt until `secrets:rotate` re-encrypts them. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  DATA_ENCRYPTION_KEY_PREVIOUS?: string;
}
