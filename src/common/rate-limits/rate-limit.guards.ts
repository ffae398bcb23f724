import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, type Principal } from '../auth/principal';
import { RateLimitedError } from '../errors';
import { addressBucket } from '../http/client-address';
import { RateLimits, RateLimitState } from './rate-limits.service';

/** The IETF draft's header trio (`RateLimit-Limit`, `-Remaining`, `-Reset` in seconds). */
export function setRateLimitHeaders(reply: FastifyReply, s: RateLimitState): void {
  void reply.header('ratelimit-limit', String(s.limit));
  void reply.header('ratelimit-remaining', String(s.remaining));
  void reply.header('ratelimit-reset', String(s.resetSeconds));
}

/**
 * Requests per minute per credential (after AccessTokenGuard: a shop token counts for its shop, a
 * merchant token for its key, a vendor token for its user). Every authenticated answer carries the
 * RateLimit-* headers; past the limit → 429 with Retry-After.
 */
@Injectable()
export class CredentialRateLimitGuard implements CanActivate {
  constructor(private readonly limits: RateLimits) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    const principal = http.getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) return true;
    const { kind, id } = actorOf(principal);
    const s = await this.limits.consumeCredential(kind, id);
    setRateLimitHeaders(http.getResponse<FastifyReply>(), s);
    if (!s.allowed) {
      throw new RateLimitedError(
        s.resetSeconds,
        `Rate limit exceeded: at most ${s.limit} requests per minute for this ${kind} credential`,
      );
    }
    return true;
  }
}

/**
 * Sign-in endpoints: attempts per minute per client address (IPv6 by /64; the address Fastify
 * derives under TRUST_PROXY), whatever their outcome. Failed attempts per account are counted by
 * the sign-in service (SignInLimiter), per address too: nothing here is shared by all callers.
 */
@Injectable()
export class SignInRateLimitGuard implements CanActivate {
  constructor(private readonly limits: RateLimits) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const s = await this.limits.consumeSignIn(addressBucket(req.ip));
    setRateLimitHeaders(http.getResponse<FastifyReply>(), s);
    if (!s.allowed) {
      throw new RateLimitedError(s.resetSeconds, 'Too many sign-in attempts; try again later');
    }
    return true;
  }
}

/**
 * Payment-provider webhooks (`/webhooks/paypal`, `/webhooks/stripe`): requests per minute per client
 * address (IPv6 by /64), counted before the body is looked at; past the limit → 429 with
 * Retry-After, which the providers answer by delivering again later. No RateLimit-* headers: the
 * callers are the providers, which do not read them.
 */
@Injectable()
export class ProviderWebhookRateLimitGuard implements CanActivate {
  constructor(private readonly limits: RateLimits) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    const s = await this.limits.consumeProviderWebhook(addressBucket(req.ip));
    if (!s.allowed) {
      throw new RateLimitedError(s.resetSeconds, 'Too many webhooks from this address; try again later');
    }
    return true;
  }
}
