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
import { V1ErrorDto, V2ErrorDto } from '../http/error.dto';
import type { CredentialKind, Principal } from './principal';
import { AccessTokenGuard, CredentialKindGuard, CREDENTIAL_KINDS } from './auth.guards';

export const ACCESS_TOKEN_SCHEME = 'x-access-token';

function authDecorators(api: 'v1' | 'v2', kinds: CredentialKind[]) {
  const type = api === 'v1' ? V1ErrorDto : V2ErrorDto;
  return applyDecorators(
    SetMetadata(CREDENTIAL_KINDS, kinds),
    UseGuards(AccessTokenGuard, CredentialKindGuard),
    ApiSecurity(ACCESS_TOKEN_SCHEME),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked token', type }),
    ApiForbiddenResponse({ description: `Only ${kinds.join(' or ')} tokens may call this endpoint`, type }),
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
