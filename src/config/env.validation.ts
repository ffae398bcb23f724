import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Matches,
  Min,
  MinLength,
  Validate,
  validateSync,
  ValidateIf,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { parseTrustProxy } from './trust-proxy';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const LOG_FORMATS = ['pretty', 'json'] as const;

/** `*`, or origins (scheme, host, optional port; no path) separated by commas. */
const ORIGIN = String.raw`https?:\/\/[^\s,/]+`;
const CORS_ORIGINS_RE = new RegExp(String.raw`^\s*(\*|${ORIGIN}(\s*,\s*${ORIGIN})*)\s*$`);

@ValidatorConstraint({ name: 'trustProxy' })
class TrustProxyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseTrustProxy(value) !== null;
  }
  defaultMessage(): string {
    return 'must be false, a hop count 1-10, or comma-separated proxy addresses/CIDRs (or loopback, linklocal, uniquelocal)';
  }
}
/**
 * `host.example.com` or `*.example.com`, comma-separated. The last label must start with a letter
 * (top-level domains do), so no IPv4 literal passes; `:` never does, so no IPv6 literal or port.
 */
const HOST_PATTERN = String.raw`(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?`;
const ALLOWED_HOSTS_RE = new RegExp(String.raw`^\s*${HOST_PATTERN}(\s*,\s*${HOST_PATTERN})*\s*$`);

const toBool = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : ['1', 'true', 'yes'].includes(String(value).toLowerCase());

/**
 * Every environment variable the service reads. Validated once at start; a bad value stops the
 * process with a one-line message naming the variable (see `validateEnv`).
 */
export class EnvironmentVariables {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  @Matches(/^mongodb(\+srv)?:\/\/\S+$/, { message: 'must be a mongodb:// or mongodb+srv:// URI' })
  MONGODB_URI = 'mongodb://127.0.0.1:27017/marketplace';

  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Required (32+ characters) in production. Elsewhere, when unset, a random secret is generated at
   * first start and kept in `MP_DATA_DIR/jwt-secret` (mode 0600); there is no built-in secret.
   */
  @ValidateIf((env: EnvironmentVariables) => env.NODE_ENV === 'production' || env.JWT_SECRET !== undefined)
  @IsString({ message: 'is required when NODE_ENV=production' })
  @MinLength(32, { message: 'must be at least 32 characters' })
  JWT_SECRET?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** Unset: `pretty` on a terminal outside production, `json` otherwise (see loggingConfig). */
  @IsOptional()
  @IsIn(LOG_FORMATS)
  LOG_FORMAT?: (typeof LOG_FORMATS)[number];

  /** Browser origins allowed to call the API (CORS); unset means no CORS headers at all. */
  @IsOptional()
  @Matches(CORS_ORIGINS_RE, {
    message: 'must be * or comma-separated origins such as https://admin.example.com,http://localhost:5173',
  })
  CORS_ORIGINS?: string;

  /**
   * The address clients reach this deployment at (scheme, host, optional port and path prefix; no
   * query), listed in the OpenAPI documents' `servers` after the relative `/`. Unset: only `/`.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
    message: 'must be an absolute http(s) URL without query or fragment, such as https://api.example.com',
  })
  PUBLIC_URL?: string;

  /**
   * Run Bull processors inside the HTTP process (set false when scaling workers out with
   * dist/worker.js). Unset: yes for the API, no for the CLI (see config/process-role.ts).
   */
  @Transform(toBool)
  QUEUE_PROCESSORS?: boolean;

  /** Bull key prefix, so several deployments (or test runs) can share one Redis. */
  @IsString()
  @Matches(/^[A-Za-z0-9:_-]+$/, { message: 'may contain only letters, digits, ":", "_" and "-"' })
  QUEUE_PREFIX = 'mp';

  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM = 'Marketplace <no-reply@marketplace.local>';

  /** 32-byte key (64 hex chars) that encrypts secrets at rest, such as store-platform access tokens. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  DATA_ENCRYPTION_KEY?: string;

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
   * Observe every database command (driver command monitoring) and attribute it to its request or
   * job: the round-trip budget tests and the benchmark read it. Off in production.
   */
  @Transform(toBool)
  DB_COMMAND_CAPTURE = false;

  /** With DB_COMMAND_CAPTURE: also append each command's shape (never values) to files in this directory. */
  @IsOptional()
  @IsString()
  DB_COMMAND_CAPTURE_DIR?: string;

  /**
   * With DB_COMMAND_CAPTURE_DIR: also write each command in full (values included, as extended
   * JSON) with its start time, so the benchmark can replay a request's commands as its floor.
   * Never in production: the file then holds data.
   */
  @Transform(toBool)
  @ValidateIf((env: EnvironmentVariables) => env.NODE_ENV === 'production')
  @IsIn([false], { message: 'must not be set when NODE_ENV=production (the capture files would hold data)' })
  DB_COMMAND_CAPTURE_VALUES = false;

  /** Local state directory: the generated development JWT secret (and, for scripts/services.sh, the local services). */
  @IsString()
  @MinLength(1)
  MP_DATA_DIR = '.data';

  /**
   * Port of the ops listener (`GET /metrics` in Prometheus format, `/health`, `/health/ready`),
   * unauthenticated, separate from the API port. Unset: 9464 for the API, 9465 for the worker; 0
   * picks a free port. The CLI opens none.
   */
  @IsOptional()
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  /** Address of the ops listener; loopback by default (compose sets 0.0.0.0 on its private network). */
  @IsString()
  METRICS_HOST = '127.0.0.1';

  /** A webhook delivery still `received` this long after it arrived is re-enqueued by the sweeper (also its processing lease). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(86_400)
  INBOX_REDRIVE_AFTER_SECONDS = 120;

  /** Processed webhook deliveries older than this are purged (at least 3: past the platform's 48 h retry window). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(3)
  @Max(3650)
  INBOX_RETENTION_DAYS = 30;

  /** How often the sweepers run (stranded deliveries, payout batches whose lease lapsed). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(3600)
  SWEEP_EVERY_SECONDS = 60;

  /** A payout run's lease; its heartbeat renews it every third of this, so a dead run's lease lapses within it. */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(3)
  @Max(600)
  PAYOUT_LEASE_SECONDS = 30;

  /**
   * An audited write whose event is still in its document's outbox (or a deletion still pending)
   * this long after it was made is completed by the audit repair job.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(86_400)
  AUDIT_REPAIR_AFTER_SECONDS = 60;

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

  /**
   * Proxies in front of the service whose `X-Forwarded-For` is believed: unset/`false` none (the
   * socket's peer is the client), a hop count 1–10, or comma-separated addresses/CIDRs (or
   * `loopback`, `linklocal`, `uniquelocal`). Never `true`: any client could then pick its address.
   */
  @IsOptional()
  @Validate(TrustProxyConstraint)
  TRUST_PROXY?: string;

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

  // --- Hardening (issue 18): outbound calls, secrets at rest, HTTP limits, docs ---

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

  /** Previous DATA_ENCRYPTION_KEY during a key rotation: values sealed under it still decrypt until `secrets:rotate` re-encrypts them. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  DATA_ENCRYPTION_KEY_PREVIOUS?: string;

  /** Serve Swagger UI and the JSON/YAML documents under /docs (turn off in production if they must not be public). */
  @Transform(toBool)
  DOCS_ENABLED = true;

  /** Longest time a client may take to send a whole request (headers and body), in ms (Fastify requestTimeout). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1000)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * A socket idle this long is closed, in ms (Fastify connectionTimeout). Longer than the slowest
   * handler (a fulfillment request's platform deadline), which sends nothing until it answers.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1000)
  @Max(600_000)
  HTTP_CONNECTION_TIMEOUT_MS = 120_000;
}

export class EnvValidationError extends Error {}

export function validateEnv(raw: Record<string, unknown>): EnvironmentVariables {
  const defined = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(EnvironmentVariables, defined);
  const [first] = validateSync(env, { skipMissingProperties: false });
  if (first) {
    const reason = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    const shown = reason.startsWith(first.property) ? reason : `${first.property} ${reason}`;
    throw new EnvValidationError(`Invalid configuration: ${shown}`);
  }
  return env;
}
