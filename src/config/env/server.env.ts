import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { toBool } from './env-transforms';
import { parseTrustProxy } from '../trust-proxy';

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

/** The process, its HTTP listener, logging and the ops listener. (Part of EnvironmentVariables, env.validation.ts.) */
export class ServerEnv {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

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

  /**
   * Proxies in front of the service whose `X-Forwarded-For` is believed: unset/`false` none (the
   * socket's peer is the client), a hop count 1–10, or comma-separated addresses/CIDRs (or
   * `loopback`, `linklocal`, `uniquelocal`). Never `true`: any client could then pick its address.
   */
  @IsOptional()
  @Validate(TrustProxyConstraint)
  TRUST_PROXY?: string;

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
