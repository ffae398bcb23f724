import { randomUUID } from 'node:crypto';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { OperationContexts } from './common/context/operation-context';
import { AllExceptionsFilter } from './common/errors';

import { createValidationPipe } from './common/http/validation';
import { createLogger } from './common/logging/logger';
import { CommandObserver } from './database/command-observer';
import { httpConfig, HttpConfig, loggingConfig } from './config/configuration';
import { setupSwagger } from './docs/swagger';
import { installDepthGuard } from './common/http/depth-guard';
import { installRouteBodyLimits } from './common/http/route-body-limit';
import { installSecurityHeaders } from './common/http/security-headers';
import { MetricsService } from './ops/metrics.service';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The process logger, made before Nest exists (the adapter needs it), from the validated logging namespace. */
export function createLoggerFromEnv(): PinoLogger {
  const { level, format } = loggingConfig();
  return createLogger(level, format);
}

/** Request headers a browser client sends, and response headers its scripts may read. */
export const CORS_ALLOWED_HEADERS = ['x-access-token', 'content-type', 'idempotency-key', 'x-request-id'];
export const CORS_EXPOSED_HEADERS = [
  'x-request-id',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'idempotent-replayed',
];

/**
 * @fastify/cors options for CORS_ORIGINS, or undefined when none are configured (no CORS headers,
 * preflights 404). Credentials travel in a header, never in cookies, so no allow-credentials.
 */
export function corsOptions(origins: string[]): Parameters<NestFastifyApplication['enableCors']>[0] {
  if (origins.length === 0) return undefined;
  return {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
  };
}

type RawHeaders = { headers: Record<string, string | string[] | undefined> };

/**
 * The caller's own `x-request-id`, when well-formed (1–128 of A–Z a–z 0–9 . _ : -): echoed in the
 * answer and kept beside ours (logs, audit), never taken as ours.
 */
export function clientRequestIdOf(req: RawHeaders): string | undefined {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : undefined;
}

/** Each request's logger: `reqId` (ours) and, when the caller sent one, its `clientRequestId`. */
function childLoggerFactory(
  parent: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  opts: object,
  raw: RawHeaders,
): FastifyBaseLogger {
  const clientRequestId = clientRequestIdOf(raw);
  return parent.child(clientRequestId ? { ...bindings, clientRequestId } : bindings, opts);
}

/**
 * Fastify with our body limit, request ids and the process logger. The request id is always ours
 * (a caller could otherwise pass another request's id into our logs and audit trail); a well-formed
 * incoming `x-request-id` is echoed in the answer, logged as `clientRequestId` and recorded beside
 * ours in the audit trail.
 */
export function createAdapter(logger: PinoLogger): FastifyAdapter {
  const { requestTimeoutMs, connectionTimeoutMs } = httpConfig();
  return new FastifyAdapter({
    // A client that trickles its request is cut off (slowloris); an idle socket is closed.
    requestTimeout: requestTimeoutMs,
    connectionTimeout: connectionTimeoutMs,
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    childLoggerFactory,
    return503OnClosing: true,
    // Route parameters of any length Node accepts reach the handlers, which answer an overlong id
    // with the API's own 404 (find-my-way's default of 100 characters answers a bare 414 instead).
    routerOptions: { maxParamLength: 16_384 },
    forceCloseConnections: 'idle',
    // The client address (sign-in limits, logs) is the socket's peer unless TRUST_PROXY names the
    // proxies whose X-Forwarded-For to believe: never a header by default.
    trustProxy: httpConfig().trustProxy,
  });
}

/** Everything that makes an app instance behave like production; shared by main, tests and the OpenAPI export. */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const http = app.get<HttpConfig>(httpConfig.KEY);
  await installSecurityHeaders(app, http.publicUrl);
  const cors = corsOptions(http.corsOrigins);
  if (cors) app.enableCors(cors);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new AllExceptionsFilter());
  const fastify = app.getHttpAdapter().getInstance();
  // Before app.init() registers the routes: a route's own (smaller) body limit (provider webhooks).
  installRouteBodyLimits(fastify);
  // The caller's own id when it sent a well-formed one (so it can match the answer to its request),
  // else ours; ours stays in the logs and the audit trail either way, the caller's beside it.
  fastify.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', clientRequestIdOf(req) ?? req.id);
  });
  // Everything from validation on (guards, handler, the database calls they make) runs in the
  // request's operation context; the body is parsed by then.
  fastify.addHook('preValidation', (req, _reply, done) => {
    OperationContexts.run({ id: req.id, kind: 'http', clientRequestId: clientRequestIdOf(req) }, done);
  });
  app.get(MetricsService, { strict: false }).instrument(fastify);
  installDepthGuard(fastify);
  const observer = app.get(CommandObserver);
  if (observer.enabled) {
    fastify.addHook('onResponse', (req, reply, done) => {
      observer.recordRequest({
        request: req.id,
        method: req.method,
        route: req.routeOptions.url ?? req.url,
        status: reply.statusCode,
      });
      done();
    });
  }
  app.enableShutdownHooks();
  // DOCS_ENABLED=false: no Swagger UI and no /docs documents (404); openapi/ still has them.
  if (http.docsEnabled) setupSwagger(app);
  await app.init();
  return app;
}
