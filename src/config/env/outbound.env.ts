import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toBool } from './env-transforms';

/**
 * `host.example.com` or `*.example.com`, comma-separated. The last label must start with a letter
 * (top-level domains do), so no IPv4 literal passes; `:` never does, so no IPv6 literal or port.
 */
const HOST_PATTERN = String.raw`(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const ALLOWED_HOSTS_RE = new RegExp(String.raw`^\s*${HOST_PATTERN}(\s*,\s*${HOST_PATTERN})*\s*$`);

/** What the service calls out to: mail, outbound events (webhook endpoints) and the store platform. (Part of EnvironmentVariables, env.validation.ts.) */
export class OutboundEnv {
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM = 'Marketplace <no-reply@marketplace.local>';

  /**
   * Outbound events (webhook endpoints) may target `http://` and loopback/private addresses:
   * development and tests only; in production endpoints are public `https://` URLs.
   */
  @Transform(toBool)
  WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;

  /** Delays before each delivery attempt, in seconds, comma-separated (the Standard Webhooks schedule). */
  @IsOptional()
  @Matches(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, { message: 'must be comma-separated seconds' })
  WEBHOOK_RETRY_SCHEDULE?: string;

  /** Event deliveries one process sends at once (all endpoints together). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_DELIVERY_CONCURRENCY = 64;

  /** Event deliveries one process sends at once to one endpoint (a slow receiver delays only itself). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(100)
  WEBHOOK_ENDPOINT_CONCURRENCY = 16;

  /**
   * Event deliveries one process sends at once to all the endpoints of one shop (issue 28): one
   * shop's endpoints (up to 16, each with slow names or receivers) never take every delivery slot.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_SHOP_CONCURRENCY = 32;

  /**
   * One replay per webhook endpoint per this many seconds (a replay re-sends up to 10,000 events);
   * a replay inside it → 429 with Retry-After. 0 turns the cooldown off.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(0)
  @Max(86_400)
  WEBHOOK_REPLAY_COOLDOWN_SECONDS = 300;

  /** Base URL of the store platform Admin API for the `shopify` adapter (a local stand-in in tests). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' })
  SHOPIFY_API_BASE_URL?: string;

  /**
   * Shop domains allowed besides `<name>.myshopify.com`: host names or `*.suffix` patterns,
   * comma-separated (e.g. a custom platform domain). Never IP literals.
   */
  @IsOptional()
  @Matches(ALLOWED_HOSTS_RE, {
    message: 'must be comma-separated host names or *.suffix patterns (no IP addresses, ports or paths)',
  })
  SHOPIFY_ALLOWED_HOSTS?: string;

  /**
   * Lets the configured SHOPIFY_API_BASE_URL host be reached over http and on a loopback/private
   * address in production too (outside production it always may: local stand-ins). Never needed
   * against the real platform.
   */
  @Transform(toBool)
  OUTBOUND_ALLOW_PRIVATE = false;
}
