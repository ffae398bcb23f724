import { createCipheriv, randomBytes } from 'node:crypto';
import { DataCipher, keyId } from './data-cipher';

const KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);
const make = (encryptionKey: string | undefined, previousEncryptionKey?: string, nodeEnv = 'test') =>
  new DataCipher(
    { encryptionKey, previousEncryptionKey },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: nodeEnv as 'test' | 'production' },
  );

/** The first format (platform tokens before key ids), sealed here independently of the class. */
function legacyV1(key: string, shopId: string, plaintext: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', Buffer.from(key, 'hex'), iv);
  c.setAAD(Buffer.from(shopId, 'utf8'));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv, c.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('DataCipher (AES-256-GCM with key ids)', () => {
  const shopA = '6740b9f1c2a4e15b3c9d0a10';
  const shopB = '6740b9f1c2a4e15b3c9d0a11';

  it('round-trips, names its key, never stores the plaintext and uses a fresh IV each time', () => {
    const c = make(KEY);
    const a = c.seal('webhook-secret', shopA, 'whsec_secret');
    const b = c.seal('webhook-secret', shopA, 'whsec_secret');
    expect(a).not.toContain('whsec_secret');
    expect(a).not.toBe(b);
    const id = keyId(Buffer.from(KEY, 'hex'));
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(a.split('.').slice(0, 2)).toEqual(['v2', id]);
    expect(c.currentKeyId).toBe(id);
    expect(c.open('webhook-secret', shopA, a)).toBe('whsec_secret');
  });

  it('does not open for another shop, another purpose, another key, or after tampering', () => {
    const sealed = make(KEY).seal('webhook-secret', shopA, 'whsec_secret');
    expect(make(KEY).open('webhook-secret', shopB, sealed)).toBeNull();
    expect(make(KEY).open('platform-token', shopA, sealed)).toBeNull();
    expect(make(NEW_KEY).open('webhook-secret', shopA, sealed)).toBeNull();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(make(KEY).open('webhook-secret', shopA, parts.join('.'))).toBeNull();
    const shortTag = sealed.split('.');
    shortTag[3] = shortTag[3].slice(0, 6);
    expect(make(KEY).open('webhook-secret', shopA, shortTag.join('.'))).toBeNull();
    expect(make(KEY).open('webhook-secret', shopA, 'garbage')).toBeNull();
  });

  it('rotation: the new key seals, the previous key still opens old values, which are then stale', () => {
    const old = make(KEY).seal('webhook-secret', shopA, 'whsec_old');
    const rotated = make(NEW_KEY, KEY);
    expect(rotated.open('webhook-secret', shopA, old)).toBe('whsec_old');
    expect(rotated.isStale(old)).toBe(true);
    const resealed = rotated.seal('webhook-secret', shopA, 'whsec_old');
    expect(resealed.split('.')[1]).toBe(keyId(Buffer.from(NEW_KEY, 'hex')));
    expect(rotated.isStale(resealed)).toBe(false);
    // once the previous key is dropped, only re-sealed values open
    expect(make(NEW_KEY).open('webhook-secret', shopA, old)).toBeNull();
    expect(make(NEW_KEY).open('webhook-secret', shopA, resealed)).toBe('whsec_old');
    expect(rotated.isStale('whsec_plain_legacy')).toBe(true);
    expect(DataCipher.isSealed('whsec_plain_legacy')).toBe(false);
    expect(DataCipher.isSealed(resealed)).toBe(true);
  });

  it('opens first-format platform tokens (no key id) under the current or the previous key', () => {
    const v1 = legacyV1(KEY, shopA, 'shpat_legacy');
    expect(make(KEY).decrypt(shopA, v1)).toBe('shpat_legacy');
    expect(make(NEW_KEY, KEY).decrypt(shopA, v1)).toBe('shpat_legacy');
    expect(make(NEW_KEY, KEY).isStale(v1)).toBe(true);
    expect(make(KEY).open('webhook-secret', shopA, v1)).toBeNull();
    expect(make(KEY).decrypt(shopB, v1)).toBeNull();
  });

  it('outside production a missing key falls back to a derived one; in production it refuses to seal', () => {
    const dev = make(undefined);
    expect(dev.decrypt(shopA, dev.encrypt(shopA, 't'))).toBe('t');
    expect(() => make(undefined, undefined, 'production').encrypt(shopA, 't')).toThrow(/DATA_ENCRYPTION_KEY/);
    expect(make(undefined, undefined, 'production').currentKeyId).toBeNull();
  });
});
