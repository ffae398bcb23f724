import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { shopScope, ShopScope } from '../tenancy';
import { errorExample, V1ErrorDto, V2ErrorDto } from '../http/error.dto';
import type { CredentialKind, Principal } from './principal';
import { CredentialRateLimitGuard, SignInRateLimitGuard } from '../rate-limits/rate-limit.guards';
import { AccessTokenGuard, CredentialKindGuard, CREDENTIAL_KINDS, VendorScopeGuard } from './auth.guards';

/**
 * One OpenAPI security scheme per credential kind, all on the same `x-access-token` header: an
 * operation lists the kinds it accepts (any one of them). Swagger UI sends every authorised scheme
 * an operation accepts, so the last one wins: authorise one kind at a time there.
 */
export const SECURITY_SCHEMES: Record<CredentialKind, string> = {
  shop: 'shopToken',
  merchant: 'merchantToken',
  vendor: 'vendorToken',
};

/**
 * The 429 of a rate-limited route, with its Retry-After header (src/docs adds the RateLimit-*
 * headers to the answers of every operation that documents a 429).
 */
export function rateLimitedResponse(api: 'v1' | 'v2', description: string, message: string) {
  return ApiTooManyRequestsResponse({
    description,
    type: api === 'v1' ? V1ErrorDto : V2ErrorDto,
    example: errorExample(api, 429, message, api === 'v2' ? { retryAfterSeconds: 42 } : undefined),
    headers: {
      'Retry-After': {
        description: 'Seconds until the next request is allowed',
        required: true,
        schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 86_400, example: 42 },
      },
    },
  });
}

function authDecorators(api: 'v1' | 'v2', kinds: CredentialKind[]) {
  const type = api === 'v1' ? V1ErrorDto : V2ErrorDto;
  // The wrong-kind answer, for the first kind this endpoint refuses (as CredentialKindGuard words it).
  const refused = (['merchant', 'vendor', 'shop'] as const).find((k) => !kinds.includes(k));
  const forbidden = `A ${refused ?? 'different'} token cannot be used on this endpoint; it needs a ${kinds.join(' or ')} token`;
  return applyDecorators(
    SetMetadata(CREDENTIAL_KINDS, kinds),
    UseGuards(AccessTokenGuard, CredentialRateLimitGuard, CredentialKindGuard, VendorScopeGuard),
    ...kinds.map((kind) => ApiSecurity(SECURITY_SCHEMES[kind])),
    rateLimitedResponse(
      api,
      'Rate limit of the credential exceeded (per minute: per shop for a shop token, per key for a merchant ' +
        `token, per user for a vendor token)${api === 'v2' ? ' (code RATE_LIMITED)' : ''}`,
      `Rate limit exceeded: at most 100 requests per minute for this ${kinds[0]} credential`,
    ),
    ApiUnauthorizedResponse({
      description: 'Missing, malformed, expired or revoked token',
      type,
      example: errorExample(api, 401, 'Missing x-access-token header'),
    }),
    ApiForbiddenResponse({
      description: `Only ${kinds.join(' or ')} tokens may call this endpoint`,
      type,
      example: errorExample(api, 403, forbidden),
    }),
  );
}

/** A v1 endpoint reachable with the given credential kinds (errors documented in the v1 shape). */
export const V1Auth = (...kinds: CredentialKind[]) => authDecorators('v1', kinds);
/** A V2 endpoint reachable with the given credential kinds (errors documented in the V2 envelope). */
export const V2Auth = (...kinds: CredentialKind[]) => authDecorators('v2', kinds);

/**
 * A sign-in endpoint: attempts per minute per client address (RATE_LIMIT_SIGN_IN_PER_ADDRESS),
 * whatever their outcome; failed attempts per account and address are counted by the service
 * (SignInLimiter). Past either → 429 with Retry-After. `more` adds to the 429's description.
 */
export const SignInLimited = (api: 'v1' | 'v2', more = '') =>
  applyDecorators(
    UseGuards(SignInRateLimitGuard),
    rateLimitedResponse(
      api,
      'Too many sign-in attempts from this client address within a minute, or too many failed attempts for this ' +
        'account from this client address (5 within 15 minutes, 20 within a day; 1 within 15 minutes while the ' +
        'account is under attack). A correct credential from another address is never refused for them' +
        (api === 'v2' ? ' (code RATE_LIMITED)' : '') +
        more,
      'Too many failed sign-in attempts from this address; try again later',
    ),
  );

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user;
});

/** The tenant scope of the verified caller: shop, plus vendor for vendor tokens. */
export const Scope = createParamDecorator((_: unknown, ctx: ExecutionContext): ShopScope => {
  const p = ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user;
  return shopScope(p.shopId, p.kind === 'vendor' ? p.vendorId : undefined);
});
