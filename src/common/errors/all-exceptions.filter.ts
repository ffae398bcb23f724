import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ReplayedResponse } from './domain-errors';
import { toErrorResponse } from './error-response';

/** One filter for every route: v1 or V2 body by path, 5xx logged with an errorId and never detailed. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    sendError(exception, req, reply, this.logger);
  }
}

export function sendError(
  exception: unknown,
  req: FastifyRequest,
  reply: FastifyReply,
  logger: Pick<Logger, 'error' | 'warn'>,
): void {
  if (exception instanceof ReplayedResponse) {
    if (reply.sent) return;
    void reply
      .status(exception.status)
      .header('content-type', 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true')
      .send(exception.bodyText);
    return;
  }
  const res = toErrorResponse(exception, req.url);
  if (res.status < 500) {
    // The cause of a client error, once per request, at info: the request logger adds reqId.
    const message = messageOf(res.body);
    req.log?.info(
      { method: req.method, url: req.url, statusCode: res.status, error: message },
      `${req.method} ${req.url} answered ${res.status}: ${message}`,
    );
  } else if (res.errorId) {
    const err = exception as Error;
    const facts = {
      errorId: res.errorId,
      reqId: req.id,
      method: req.method,
      url: req.url,
      err: { name: err?.name, message: err?.message, stack: res.unavailable ? undefined : err?.stack },
    };
    if (res.unavailable) logger.warn(facts, `Service unavailable ${res.errorId}: ${err?.message}`);
    else logger.error(facts, `Unhandled error ${res.errorId}`);
  }
  if (reply.sent) return;
  void reply.status(res.status).headers(res.headers).send(res.body);
}

/** The message of a v1 `{error}` or V2 `{error: {message}}` body. */
function messageOf(body: Record<string, unknown>): string {
  const error = body.error;
  if (typeof error === 'string') return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : 'Client error';
}
