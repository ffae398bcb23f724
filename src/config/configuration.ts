import { createHash } from 'node:crypto';
import { ConfigType, registerAs } from '@nestjs/config';
import { validateEnv } from './env.validation';
import { localJwtSecret } from './local-secret';
import { parseTrustProxy } from './trust-proxy';
import { parseRetrySchedule } from './retry-schedule';

export const appConfig = registerAs('app', () => {
  const env = validateEnv(process.env);
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    /** QUEUE_PROCESSORS as set (undefined: unset); `AppModule.forRole` combines it with the role. */
    queueProcessors: env.QUEUE_PROCESSORS,
    queuePrefix: env.QUEUE_PREFIX,
  };
});

export const databaseConfig = registerAs('database', () => {
  const env = validateEnv(process.env);
  return {
    uri: env.MONGODB_URI,
    captureCommands: env.DB_COMMAND_CAPTURE || env.DB_COMMAND_CAPTURE_DIR !== undefined,
    captureDir: env.DB_COMMAND_CAPTURE_DIR,
    captureValues: env.DB_COMMAND_CAPTURE_VALUES && env.DB_COMMAND_CAPTURE_DIR !== undefined,
  };
});

export const redisConfig = registerAs('redis', () => ({ url: validateEnv(process.env).REDIS_URL }));

export const authConfig = registerAs('auth', () => {
  const env = validateEnv(process.env);
  // Production requires JWT_SECRET (validated); elsewhere an unset one means this installation's own
  // random secret, generated once under MP_DATA_DIR.
  const local = env.JWT_SECRET === undefined ? localJwtSecret(env.MP_DATA_DIR) : null;
  const secret = env.JWT_SECRET ?? local!.secret;
  return {
    jwtSecret: secret,
    /** Separate key for cursor signatures, derived so that one secret configures both. */
    cursorKey: createHash('sha256').update(`cursor:${secret}`).digest(),
    /** No JWT_SECRET given: the file holding the generated secret (said at start). */
    generatedSecretFile: local?.file ?? null,
  };
});

export const mailConfig = registerAs('mail', () => {
  const env = validateEnv(process.env);
  // Invitation mails carry a password: in production the SMTP session must be encrypted (STARTTLS
  // required on smtp://; smtps:// is TLS from the start).
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, requireTls: env.NODE_ENV === 'production' };
});

export const platformConfig = registerAs('platform', () => {
  const env = validateEnv(process.env);
  return {
    encryptionKey: env.DATA_ENCRYPTION_KEY,
    /** The key before the current one, during a rotation (read-only: nothing new is sealed under it). */
    previousEncryptionKey: env.DATA_ENCRYPTION_KEY_PREVIOUS,
    shopifyApiBaseUrl: env.SHOPIFY_API_BASE_URL,
    /** Shop domains allowed besides `<name>.myshopify.com` (exact names or `*.suffix`). */
    shopifyAllowedHosts: parseList(env.SHOPIFY_ALLOWED_HOSTS).map((h) => h.toLowerCase()),
    /**
     * The configured SHOPIFY_API_BASE_URL host may be plain http and loopback/private: always
     * outside production (local stand-ins), in production only with OUTBOUND_ALLOW_PRIVATE.
     */
    allowPrivateBaseUrl: env.NODE_ENV !== 'production' || env.OUTBOUND_ALLOW_PRIVATE,
  };
});

/** A provider call's tries within one lease: the call and the SDK's one network retry (PayPal: token, then call). */
export const PROVIDER_CALL_TRIES = 2;
/** What a lease holds besides the provider's tries: the retry's backoff, the credential read, our writes. */
export const PROVIDER_CALL_SLACK_MS = 5_000;
/** Stripe's and PayPal's own answer time we wait for at most, per try. */
export const PROVIDER_TIMEOUT_MAX_MS = 30_000;

/**
 * The timeout of one provider try, so that a whole call (every try, and the slack) ends within the
 * transfer lease: a second attempt can then never take a transfer over while its call is in flight
 * (Stripe would answer it 409 for the same idempotency key, PayPal a duplicate sender_batch_id).
 */
export function providerTimeoutFor(leaseMs: number): number {
  return Math.min(
    PROVIDER_TIMEOUT_MAX_MS,
    Math.floor((leaseMs - PROVIDER_CALL_SLACK_MS) / PROVIDER_CALL_TRIES),
  );
}

/** Payout rails: provider endpoints (overridable for tests), attempts and the PayPal follow-up period. */
export const railsConfig = registerAs('rails', () => {
  const env = validateEnv(process.env);
  return {
    stripeApiBaseUrl: env.STRIPE_API_BASE_URL?.replace(/\/+$/, ''),
    paypalApiBaseUrl: env.PAYPAL_API_BASE_URL?.replace(/\/+$/, ''),
    maxAttempts: env.TRANSFER_MAX_ATTEMPTS,
    pollMs: env.TRANSFER_POLL_SECONDS * 1000,
    leaseMs: env.TRANSFER_LEASE_SECONDS * 1000,
    /** Loopback/http targets only outside production (stripe-mock and the stand-ins). */
    allowLocalTargets: env.NODE_ENV !== 'production',
  };
});

/** What an unauthenticated PayPal webhook may be before it costs a read or a call to PayPal (issue 28). */
export const providerWebhooksConfig = registerAs('providerWebhooks', () => {
  const env = validateEnv(process.env);
  return {
    paypalMaxBytes: env.PAYPAL_WEBHOOK_MAX_BYTES,
    paypalToleranceMs: env.PAYPAL_WEBHOOK_TOLERANCE_SECONDS * 1000,
  };
});

/**
 * Read before Nest exists too (main, worker: the logger is handed to the adapter), by calling the
 * factory directly. `pretty` is for a developer's terminal; anything collected or piped gets JSON.
 */
export const loggingConfig = registerAs('logging', () => {
  const env = validateEnv(process.env);
  const terminal = process.stdout.isTTY === true && env.NODE_ENV !== 'production';
  return { level: env.LOG_LEVEL, format: env.LOG_FORMAT ?? (terminal ? 'pretty' : 'json') };
});

/**
 * `corsOrigins`: empty = no CORS at all; `['*']` = any origin. `publicUrl`: the deployment's public
 * address for the OpenAPI `servers` (no trailing slash), or undefined.
 */
export const httpConfig = registerAs('http', () => {
  const env = validateEnv(process.env);
  return {
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, ''),
    /** Fastify's `trustProxy` (validated): which proxies' X-Forwarded-For gives the client address. */
    trustProxy: parseTrustProxy(env.TRUST_PROXY) ?? false,
    docsEnabled: env.DOCS_ENABLED,
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: env.HTTP_CONNECTION_TIMEOUT_MS,
  };
});

function parseList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

export function parseCorsOrigins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}
/** The ops listener: Prometheus metrics and health, on its own port (see METRICS_PORT). */
export const metricsConfig = registerAs('metrics', () => {
  const env = validateEnv(process.env);
  return { port: env.METRICS_PORT, host: env.METRICS_HOST };
});

/** Durable work: the webhook inbox, its sweeper and retention, payout run leases. */
export const jobsConfig = registerAs('jobs', () => {
  const env = validateEnv(process.env);
  return {
    redriveAfterMs: env.INBOX_REDRIVE_AFTER_SECONDS * 1000,
    retentionMs: env.INBOX_RETENTION_DAYS * 24 * 3600 * 1000,
    sweepEveryMs: env.SWEEP_EVERY_SECONDS * 1000,
    payoutLeaseMs: env.PAYOUT_LEASE_SECONDS * 1000,
  };
});

/** The audit trail's repair job: how old an unfinished outbox entry or pending deletion must be. */
export const auditConfig = registerAs('audit', () => ({
  repairAfterMs: validateEnv(process.env).AUDIT_REPAIR_AFTER_SECONDS * 1000,
}));

/** Outbound events (issue 19): the delivery guard's policy inputs, the retry schedule, concurrency. */
export const webhooksConfig = registerAs('webhooks', () => {
  const env = validateEnv(process.env);
  return {
    production: env.NODE_ENV === 'production',
    allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS === true,
    retryScheduleMs: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
    deliveryConcurrency: env.WEBHOOK_DELIVERY_CONCURRENCY,
    endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
    shopConcurrency: env.WEBHOOK_SHOP_CONCURRENCY,
    replayCooldownSeconds: env.WEBHOOK_REPLAY_COOLDOWN_SECONDS,
  };
});

/** Requests per minute per credential, sign-in attempts per client address, failed sign-ins per account. */
export const rateLimitConfig = registerAs('rateLimit', () => {
  const env = validateEnv(process.env);
  return {
    perMinute: {
      shop: env.RATE_LIMIT_SHOP_PER_MINUTE,
      merchant: env.RATE_LIMIT_MERCHANT_PER_MINUTE,
      vendor: env.RATE_LIMIT_VENDOR_PER_MINUTE,
    },
    signInPerAddress: env.RATE_LIMIT_SIGN_IN_PER_ADDRESS,
    /** Payment-provider webhooks per client address and minute (both providers together). */
    providerWebhookPerAddress: env.PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE,
    /** Failed sign-ins (src/auth/sign-in-policy.ts; docs/operations/security.md, "Sign-in policy"). */
    signIn: {
      perAddress: env.SIGN_IN_FAILURES_PER_ADDRESS,
      shortWindowMs: 15 * 60_000,
      perAddressPerDay: env.SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY,
      longWindowMs: 24 * 3600_000,
      perAccount: env.SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR,
      accountWindowMs: 3600_000,
    },
    /** Redis key prefix of the counters (shared by every process of the deployment). */
    keyPrefix: `${env.QUEUE_PREFIX}:rl`,
  };
});

export type AppConfig = ConfigType<typeof appConfig>;
export type DatabaseConfig = ConfigType<typeof databaseConfig>;
export type RedisConfig = ConfigType<typeof redisConfig>;
export type AuthConfig = ConfigType<typeof authConfig>;
export type MailConfig = ConfigType<typeof mailConfig>;
export type PlatformConfig = ConfigType<typeof platformConfig>;
export type LoggingConfig = ConfigType<typeof loggingConfig>;
export type HttpConfig = ConfigType<typeof httpConfig>;
export type MetricsConfig = ConfigType<typeof metricsConfig>;
export type JobsConfig = ConfigType<typeof jobsConfig>;
export type AuditConfig = ConfigType<typeof auditConfig>;
export type RateLimitConfig = ConfigType<typeof rateLimitConfig>;
export type RailsConfig = ConfigType<typeof railsConfig>;
export type ProviderWebhooksConfig = ConfigType<typeof providerWebhooksConfig>;
export type WebhooksConfig = ConfigType<typeof webhooksConfig>;

export const allConfigs = [
  appConfig,
  databaseConfig,
  redisConfig,
  authConfig,
  mailConfig,
  platformConfig,
  loggingConfig,
  httpConfig,
  metricsConfig,
  jobsConfig,
  auditConfig,
  rateLimitConfig,
  railsConfig,
  providerWebhooksConfig,
  webhooksConfig,
];
