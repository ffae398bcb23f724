import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { shopScope, ShopScope } from '../tenancy';
import { errorExample, V1ErrorDto, V2ErrorDto } from '../http/error.dto';
import type { CredentialKind, Principal } from './principal';
import { AccessTokenGuard, CredentialKindGuard, CREDENTIAL_KINDS } from './auth.guards';

/**
 * One OpenAPI security scheme per credential kind, all on the same `x-access-token` header: an
 * operation lists the kinds it accepts, and Swagger UI sends the token authorised for one of them.
 */
export const SECURITY_SCHEMES: Record<CredentialKind, string> = {
  shop: 'shopToken',
  merchant: 'merchantToken',
  vendor: 'vendorToken',
};

function authDecorators(api: 'v1' | 'v2', kinds: CredentialKind[]) {
  const type = api === 'v1' ? V1ErrorDto : V2ErrorDto;
  // The wrong-kind answer, for the first kind this endpoint refuses (as CredentialKindGuard words it).
  const refused = (['merchant', 'vendor', 'shop'] as const).find((k) => !kinds.includes(k));
  const forbidden = `A ${refused ?? 'different'} token cannot be used on this endpoint; it needs a ${kinds.join(' or ')} token`;
  return applyDecorators(
    SetMetadata(CREDENTIAL_KINDS, kinds),
    UseGuards(AccessTokenGuard, CredentialKindGuard),
    ...kinds.map((kind) => ApiSecurity(SECURITY_SCHEMES[kind])),
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

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user;
});

/** The tenant scope of the verified caller: shop, plus vendor for vendor tokens. */
export const Scope = createParamDecorator((_: unknown, ctx: ExecutionContext): ShopScope => {
  const p = ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user;
  return shopScope(p.shopId, p.kind === 'vendor' ? p.vendorId : undefined);
});
