import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { Strategy } from 'passport-custom';
import { OperationContexts } from '../common/context/operation-context';
import { ACCESS_TOKEN_STRATEGY } from '../common/auth/auth.guards';
import { actorOf, type Principal } from '../common/auth/principal';
import { UnauthorizedError } from '../common/errors';
import { CredentialChecks } from './credential-checks';
import { TokenService } from './token.service';

/** All three kinds travel in `x-access-token`, without a Bearer prefix (spec §5). */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, ACCESS_TOKEN_STRATEGY) {
  constructor(
    private readonly tokens: TokenService,
    private readonly checks: CredentialChecks,
  ) {
    super();
  }

  async validate(req: FastifyRequest): Promise<Principal> {
    const raw = req.headers['x-access-token'];
    if (typeof raw !== 'string' || raw.length === 0)
      throw new UnauthorizedError('Missing x-access-token header');
    const principal = this.tokens.verify(raw);
    await OperationContexts.phase('auth', () => this.checks.assertActive(principal));
    OperationContexts.identify(actorOf(principal));
    return principal;
  }
}
