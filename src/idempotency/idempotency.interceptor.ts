import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { actorOf, type Principal } from '../common/auth/principal';
import { ReplayedResponse, toErrorResponse } from '../common/errors';
import { shopScope } from '../common/tenancy';
import { chosenStatus } from './answer-status';
import { IdempotencyService, parseIdempotencyKey, requestFingerprint } from './idempotency.service';
import { isRetryable } from './retryable-answer';

/**
 * `Idempotency-Key` on a write route (applied by `@Idempotent()`): runs after the credential and
 * rate-limit guards and around validation and the handler, so a validation failure is an answer
 * like any other. Keys belong to the exact credential (shop token → its shop, merchant token → its
 * key, vendor token → its user). Without the header the request runs as usual.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    if (key === undefined || !req.user) return next.handle();
    const principal = req.user;
    const scope = shopScope(principal.shopId);
    const path = req.url.split('?')[0];
    const fingerprint = requestFingerprint({ method: req.method, path, query: req.query, body: req.body });
    const owner = actorOf(principal);
    const start = await this.idempotency.start(scope, owner, key, fingerprint);
    if (start.kind === 'replay') throw new ReplayedResponse(start.status, start.bodyText);
    const successStatus =
      (Reflect.getMetadata(HTTP_CODE_METADATA, ctx.getHandler()) as number | undefined) ??
      (req.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
    return next.handle().pipe(
      mergeMap((body) =>
        from(
          // A retryable answer (retryable-answer.ts) releases the key like a 5xx: a retry does the rest.
          (isRetryable(body)
            ? this.idempotency.forget(scope, start)
            : this.idempotency.complete(scope, owner, key, start, {
                // a status the handler chose at run time (answerStatus) wins over the route's
                status: chosenStatus(ctx.switchToHttp().getResponse<object>()) ?? successStatus,
                bodyText: JSON.stringify(body ?? null),
              })
          ).then(() => body),
        ),
      ),
      catchError((err: unknown) =>
        from(
          (async () => {
            const answer = toErrorResponse(err, req.url);
            if (answer.status >= 500) await this.idempotency.forget(scope, start);
            else
              await this.idempotency.complete(scope, owner, key, start, {
                status: answer.status,
                bodyText: JSON.stringify(answer.body),
              });
            throw err;
          })(),
        ),
      ),
    );
  }
}
