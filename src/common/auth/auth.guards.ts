import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { CredentialKind, Principal } from './principal';
import { REQUIRED_SCOPE, type VendorScope } from './scopes';

export const CREDENTIAL_KINDS = 'auth:credential-kinds';
export const ACCESS_TOKEN_STRATEGY = 'access-token';

/** Verifies `x-access-token` through the passport strategy; any failure is a 401. */
@Injectable()
export class AccessTokenGuard extends AuthGuard(ACCESS_TOKEN_STRATEGY) {
  override handleRequest<TUser = Principal>(err: unknown, user: TUser | false): TUser {
    if (err) throw err instanceof Error ? err : new UnauthorizedError();
    if (!user) throw new UnauthorizedError();
    return user;
  }
}

/** A valid token of the wrong kind for the endpoint is a 403, not a 401. */
@Injectable()
export class CredentialKindGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const kinds = this.reflector.getAllAndOverride<CredentialKind[]>(CREDENTIAL_KINDS, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    const principal = ctx.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) throw new UnauthorizedError();
    if (kinds && !kinds.includes(principal.kind)) {
      throw new ForbiddenError(
        `A ${principal.kind} token cannot be used on this endpoint; it needs a ${kinds.join(' or ')} token`,
      );
    }
    return true;
  }
}

/**
 * A vendor token must hold the scope the route names with @RequireScope (DESIGN §12); shop and
 * merchant tokens are not scoped. Runs after CredentialKindGuard on every authenticated route.
 */
@Injectable()
export class VendorScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    const scope = this.reflector.getAllAndOverride<VendorScope | undefined>(REQUIRED_SCOPE, [
      ctx.getHandler(),
      ctx.getClass(),
    ]);
    if (!scope) return true;
    const principal = ctx.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>().user;
    if (!principal) throw new UnauthorizedError();
    if (principal.kind !== 'vendor' || principal.permissions === undefined) return true;
    if (!principal.permissions.includes(scope)) {
      throw new ForbiddenError('Insufficient scope', { requiredScope: scope });
    }
    return true;
  }
}
