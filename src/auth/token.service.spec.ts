import { JwtService } from '@nestjs/jwt';
import { FixedClock } from '../../test/fakes/fake';
import { actorOf, type Principal } from '../common/auth/principal';
import type { AuthConfig } from '../config/configuration';
import { TokenService } from './token.service';

const SHOP = '6740b9f1c2a4e15b3c9d0a10';
const VENDOR = '6740c1a2e4b0f15b3c9d0a21';
const KEY = '6741a0b1c2d3e4f5a6b7c8d9';
const USER = '6740c7d3e4b0f15b3c9d0a31';

describe('TokenService: vendor tokens of a portal user or a vendor API key', () => {
  const jwt = new JwtService({});
  const tokens = new TokenService(jwt, new FixedClock(), { jwtSecret: 'unit-secret' } as AuthConfig);
  const base = { kind: 'vendor' as const, shopId: SHOP, shopDomain: 'acme.myshopify.com', vendorId: VENDOR };
  /** A token of the vendor audience carrying exactly these claims (as a forger holding the secret would). */
  const signed = (claims: Record<string, unknown>) =>
    jwt.sign(claims, {
      secret: 'unit-secret',
      algorithm: 'HS256',
      issuer: 'marketplace-admin-api',
      audience: 'marketplace:vendor',
      expiresIn: 3600,
    });

  it('a key token names its key (kid) and vendor, no user; it verifies back with the key and acts as it', () => {
    const { token, expiresIn } = tokens.issue({ ...base, keyId: KEY });
    expect(expiresIn).toBe(86400);
    const claims = jwt.decode(token) as Record<string, unknown>;
    expect(claims).toMatchObject({ kid: KEY, vid: VENDOR, sub: KEY });
    expect(claims.uid).toBeUndefined();
    const p = tokens.verify(token);
    expect(p).toMatchObject({ kind: 'vendor', keyId: KEY, vendorId: VENDOR, userId: undefined });
    expect(actorOf(p)).toEqual({ kind: 'vendor', id: KEY });
  });

  it('a portal user token still verifies and acts as its user', () => {
    const p: Principal = tokens.verify(tokens.issue({ ...base, userId: USER }).token);
    expect(p).toMatchObject({ kind: 'vendor', userId: USER, keyId: undefined });
    expect(actorOf(p)).toEqual({ kind: 'vendor', id: USER });
  });

  it('refuses a vendor token with neither or both of user and key, or without its vendor', () => {
    const common = { sid: SHOP, dom: 'acme.myshopify.com', vid: VENDOR };
    expect(() => tokens.verify(signed(common))).toThrow('Invalid access token');
    expect(() => tokens.verify(signed({ ...common, uid: USER, kid: KEY }))).toThrow('Invalid access token');
    expect(() => tokens.verify(signed({ sid: SHOP, dom: 'acme.myshopify.com', kid: KEY }))).toThrow(
      'Invalid access token',
    );
    expect(tokens.verify(signed({ ...common, kid: KEY })).keyId).toBe(KEY);
  });
});
