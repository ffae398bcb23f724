import { createSecretKey, KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { authConfig, AuthConfig } from '../config/configuration';
import { Clock } from '../common/clock/clock';
import { UnauthorizedError } from '../common/errors';
import type { CredentialKind, Principal } from '../common/auth/principal';

/** Lifetimes in seconds (spec §8, DESIGN §3). */
export const TOKEN_TTL: Record<CredentialKind, number> = {
  shop: 24 * 3600,
  merchant: 14 * 24 * 3600,
  vendor: 24 * 3600,
};

const ISSUER = 'marketplace-admin-api';
/** A distinct audience per kind: one kind of token can never pass for another. */
const AUDIENCE: Record<CredentialKind, string> = {
  shop: 'marketplace:shop',
  merchant: 'marketplace:merchant',
  vendor: 'marketplace:vendor',
};
const KIND_BY_AUDIENCE = new Map(Object.entries(AUDIENCE).map(([k, a]) => [a, k as CredentialKind]));

interface Claims {
  sid: string;
  dom: string;
  kv?: number;
  cv?: number;
  kid?: string;
  vid?: string;
  uid?: string;
  aud: string;
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

@Injectable()
export class TokenService {
  /** A KeyObject, not the string: jsonwebtoken re-derives a key from a string secret on every call (~30x slower). */
  private readonly key: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) cfg: AuthConfig,
  ) {
    this.key = createSecretKey(Buffer.from(cfg.jwtSecret, 'utf8'));
  }

  issue(principal: Principal): IssuedToken {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const expiresIn = TOKEN_TTL[principal.kind];
    const payload: Record<string, unknown> = { sid: principal.shopId, dom: principal.shopDomain, iat };
    if (principal.kind === 'shop') payload.kv = principal.keyVersion ?? 0;
    if (principal.kind === 'vendor') payload.cv = principal.credentialVersion ?? 0;
    if (principal.keyId) payload.kid = principal.keyId;
    if (principal.vendorId) payload.vid = principal.vendorId;
    if (principal.userId) payload.uid = principal.userId;
    const token = this.jwt.sign(payload, {
      secret: this.key as unknown as string,
      algorithm: 'HS256',
      issuer: ISSUER,
      audience: AUDIENCE[principal.kind],
      subject: principal.userId ?? principal.keyId ?? principal.shopId,
      expiresIn,
    });
    return { token, expiresIn };
  }

  /** Signature, issuer, audience and expiry (against the injectable clock); any failure is a 401. */
  verify(token: string): Principal {
    let claims: Claims;
    try {
      claims = this.jwt.verify<Claims>(token, {
        secret: this.key as unknown as string,
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: Object.values(AUDIENCE) as [string, ...string[]],
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
    } catch (err) {
      const expired = (err as Error).name === 'TokenExpiredError';
      throw new UnauthorizedError(expired ? 'Access token has expired' : 'Invalid access token');
    }
    const kind = KIND_BY_AUDIENCE.get(claims.aud);
    if (!kind || typeof claims.sid !== 'string' || typeof claims.dom !== 'string')
      throw new UnauthorizedError('Invalid access token');
    // A vendor token is a portal user's (uid) or a vendor API key's (kid), never both.
    if (
      (kind === 'merchant' && !claims.kid) ||
      (kind === 'vendor' && (!claims.vid || !claims.uid === !claims.kid))
    ) {
      throw new UnauthorizedError('Invalid access token');
    }
    if (kind === 'shop' && claims.kv !== undefined && !Number.isSafeInteger(claims.kv))
      throw new UnauthorizedError('Invalid access token');
    if (kind === 'vendor' && claims.cv !== undefined && !Number.isSafeInteger(claims.cv))
      throw new UnauthorizedError('Invalid access token');
    return {
      kind,
      shopId: claims.sid,
      shopDomain: claims.dom,
      keyId: claims.kid,
      vendorId: claims.vid,
      userId: claims.uid,
      ...(kind === 'shop' ? { keyVersion: claims.kv ?? 0 } : {}),
      // Tokens minted before versions existed carry none: version 0, as an unchanged user has.
      ...(kind === 'vendor' ? { credentialVersion: claims.cv ?? 0 } : {}),
    };
  }
}
