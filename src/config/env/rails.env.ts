import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** Payout rails (Stripe Connect, PayPal) and their provider webhooks. (Part of EnvironmentVariables, env.validation.ts.) */
export class RailsEnv {
  /**
   * Payout rails (docs/guide/transfers-and-payout-rails.md): where the Stripe SDK sends its requests instead of
   * https://api.stripe.com (stripe-mock or a stand-in in development and tests). Outside production a
   * loopback http URL is allowed; in production the outbound guard still refuses http and private targets.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+\/?$/, {
    message: 'must be an http(s) origin such as http://127.0.0.1:12111',
  })
  STRIPE_API_BASE_URL?: string;

  /** Where PayPal Payouts calls go instead of api-m(.sandbox).paypal.com (a stand-in in tests). */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+\/?$/, {
    message: 'must be an http(s) origin such as http://127.0.0.1:12112',
  })
  PAYPAL_API_BASE_URL?: string;

  /** Provider answers that refuse a transfer (not outages) before it is marked failed and credited back. */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(20)
  TRANSFER_MAX_ATTEMPTS = 3;

  /** How often a sent PayPal transfer's item status is looked up (and how long a send failure waits first). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(86_400)
  TRANSFER_POLL_SECONDS = 60;

  /**
   * How long one rail call holds a transfer before another attempt may take it over (after a crash,
   * the wait before the transfer is driven again). A provider call's timeout is derived from it
   * (providerTimeoutFor in config/configuration.ts: two tries and 5 s of slack fit in the lease, at most 30 s a
   * try), so a second attempt never takes over a call still in flight; at least 15 s (5 s a try).
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(15, { message: 'must be at least 15 (two provider tries of at least 5 s each, and 5 s of slack)' })
  @Max(3600)
  TRANSFER_LEASE_SECONDS = 90;

  /**
   * Payment-provider webhooks (`POST /webhooks/paypal`, `/webhooks/stripe`) per minute per client
   * address (IPv6 by /64), whatever their outcome; then 429 with Retry-After (the providers deliver
   * again later). PayPal and Stripe send from a few addresses: keep it above a payout run's burst.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE = 600;

  /** Largest `POST /webhooks/paypal` body accepted, in bytes (413 above it, before anything is read); PayPal's events are a few KB. */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(4096)
  @Max(1024 * 1024)
  PAYPAL_WEBHOOK_MAX_BYTES = 64 * 1024;

  /**
   * A PayPal webhook whose `paypal-transmission-time` is further than this from now (either way) is
   * refused (401) before it is verified. PayPal signs the time, and each redelivery (up to 3 days)
   * is a new transmission with a new time, so only a replayed capture is ever outside the window.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(30)
  @Max(86_400)
  PAYPAL_WEBHOOK_TOLERANCE_SECONDS = 300;
}
