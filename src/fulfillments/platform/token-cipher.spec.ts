import { TokenCipher } from './token-cipher';

const KEY = 'a'.repeat(64);
const make = (encryptionKey: string | undefined, nodeEnv: 'production' | 'test' = 'test') =>
  new TokenCipher(
    { encryptionKey, shopifyApiBaseUrl: undefined },
    { jwtSecret: 'x'.repeat(40), cursorKey: Buffer.alloc(32), generatedSecretFile: null },
    { nodeEnv } as never,
  );

describe('TokenCipher (AES-256-GCM)', () => {
  const shopA = '6740b9f1c2a4e15b3c9d0a10';
  const shopB = '6740b9f1c2a4e15b3c9d0a11';

  it('round-trips, never stores the plaintext and uses a fresh IV each time', () => {
    const c = make(KEY);
    const a = c.encrypt(shopA, 'shpat_secret');
    const b = c.encrypt(shopA, 'shpat_secret');
    expect(a).not.toContain('shpat_secret');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.')).toBe(true);
    expect(c.decrypt(shopA, a)).toBe('shpat_secret');
  });

  it('does not decrypt for another shop, another key, or after tampering', () => {
    const sealed = make(KEY).encrypt(shopA, 'shpat_secret');
    expect(make(KEY).decrypt(shopB, sealed)).toBeNull();
    expect(make('b'.repeat(64)).decrypt(shopA, sealed)).toBeNull();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(make(KEY).decrypt(shopA, parts.join('.'))).toBeNull();
    expect(make(KEY).decrypt(shopA, 'garbage')).toBeNull();
  });

  it('outside production a missing key falls back to a derived one; in production it refuses to store', () => {
    const dev = make(undefined);
    expect(dev.decrypt(shopA, dev.encrypt(shopA, 't'))).toBe('t');
    expect(() => make(undefined, 'production').encrypt(shopA, 't')).toThrow(/DATA_ENCRYPTION_KEY/);
  });
});
