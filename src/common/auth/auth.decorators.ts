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
import { V1ErrorDto, V2ErrorDto } from '../http/error.dto';
import type { CredentialKind, Principal } from './principal';
import { CredentialRateLimitGuard, SignInRateLimitGuard } from '../rate-limits/rate-limit.guards';
import { AccessTokenGuard, CredentialKindGuard, CREDENTIAL_KINDS } from './auth.guards';

/** The 429 of a rate-limited route, with its Retry-After header (RateLimit-* are added to every answer). */
export function rateLimitedResponse(type: typeof V1ErrorDto | typeof V2ErrorDto, description: string) {
  return ApiTooManyRequestsResponse({
    description,
    type,
    headers: {
      'Retry-After': {
        description: 'Seconds until the next request is allowed',
        schema: { type: 'integer', example: 42 },
      },
    },
  });
}

export const ACCESS_TOKEN_SCHEME = 'x-access-token';

function authDecorators(api: 'v1' | 'v2', kinds: CredentialKind[]) {
  const type = api === 'v1' ? V1ErrorDto : V2ErrorDto;
  return applyDecorators(
    SetMetadata(CREDENTIAL_KINDS, kinds),
    UseGuards(AccessTokenGuard, CredentialRateLimitGuard, CredentialKindGuard),
    ApiSecurity(ACCESS_TOKEN_SCHEME),
    rateLimitedResponse(
      type,
      'Rate limit of the credential exceeded (per minute: per shop for a shop token, per key for a merchant ' +
        `token, per user for a vendor token)${api === 'v2' ? ' (code RATE_LIMITED)' : ''}`,
    ),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked token', type }),
    ApiForbiddenResponse({ description: `Only ${kinds.join(' or ')} tokens may call this endpoint`, type }),
  );
}

/** A v1 endpoint reachable with the given credential kinds (errors documented in the v1 shape). */
export const V1Auth = (...kinds: CredentialKind[]) => authDecorators('v1', kinds);
/** A V2 endpoint reachable with the given credential kinds (errors documented in the V2 envelope). */
export const V2Auth = (...kinds: CredentialKind[]) => authDecorators('v2', kinds);

/**
 * A sign-in endpoint: attempts per minute per client address and per shop (RATE_LIMIT_SIGN_IN_*),
 * whatever their outcome; past either → 429 with Retry-After. `more` adds to the 429's description.
 */
export const SignInLimited = (api: 'v1' | 'v2', more = '') =>
  applyDecorators(
    UseGuards(SignInRateLimitGuard),
    rateLimitedResponse(
      api === 'v1' ? V1ErrorDto : V2ErrorDto,
      'Too many sign-in attempts from this client address or for this shop within a minute' +
        (api === 'v2' ? ' (code RATE_LIMITED)' : '') +
        more,
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
