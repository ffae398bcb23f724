import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  appConfig,
  type AppConfig,
  authConfig,
  type AuthConfig,
  platformConfig,
  type PlatformConfig,
} from '../../config/configuration';
import { ValidationError } from '../errors';

/** What a sealed value is for: part of the associated data, so a ciphertext cannot change fields. */
export type SecretPurpose =
  | 'platform-token'
  | 'webhook-secret'
  // DESIGN §14: the shop's own tax id (legal settings), a vendor's tax id and date of birth (tax profile;
  // sealed with `<shopId>:<vendorId>` as the binding, so a value copied to another vendor does not open)
  | 'shop-tax-id'
  | 'vendor-tax-id'
  | 'vendor-date-of-birth';

/** Current format: `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts). */
const V2 = 'v2';
/** The first format (platform tokens only): `v1.<iv>.<tag>.<ciphertext>`, no key id, the shop id as AAD. */
const V1 = 'v1';

interface Key {
  id: string;
  bytes: Buffer;
}

/** A key's id: the first 8 hex digits of its SHA-256 (names the key, reveals nothing of it). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * AES-256-GCM for secrets at rest (store-platform access tokens, webhook secrets), keyed by
 * DATA_ENCRYPTION_KEY. Every value names the key that sealed it, so the key can be rotated: set the
 * new key as DATA_ENCRYPTION_KEY and the old one as DATA_ENCRYPTION_KEY_PREVIOUS, run
 * `secrets:rotate` (re-seals everything under the current key), then drop the previous key.
 * The associated data is the purpose and the shop id: a ciphertext copied to another shop or
 * another field does not open. Outside production a missing key falls back to one derived from the
 * JWT secret (development only); in production nothing can be sealed without a key.
 */
@Injectable()
export class DataCipher {
  private readonly current: Key | null;
  private readonly keys = new Map<string, Key>();

  constructor(
    @Inject(platformConfig.KEY) platform: Pick<PlatformConfig, 'encryptionKey' | 'previousEncryptionKey'>,
    @Inject(authConfig.KEY) auth: Pick<AuthConfig, 'jwtSecret'>,
    @Inject(appConfig.KEY) app: Pick<AppConfig, 'nodeEnv'>,
  ) {
    let current: Buffer | null = null;
    if (platform.encryptionKey) current = Buffer.from(platform.encryptionKey, 'hex');
    else if (app.nodeEnv !== 'production')
      current = createHash('sha256').update(`data-encryption:${auth.jwtSecret}`).digest();
    this.current = current ? { id: keyId(current), bytes: current } : null;
    const previous = platform.previousEncryptionKey
      ? Buffer.from(platform.previousEncryptionKey, 'hex')
      : null;
    for (const k of [this.current, previous ? { id: keyId(previous), bytes: previous } : null]) {
      if (k && !this.keys.has(k.id)) this.keys.set(k.id, k);
    }
  }

  /** The id of the key new values are sealed under (null: none configured, production). */
  get currentKeyId(): string | null {
    return this.current?.id ?? null;
  }

  seal(purpose: SecretPurpose, shopId: string, plaintext: string): string {
    if (!this.current) {
      throw new ValidationError('This server cannot store secrets: DATA_ENCRYPTION_KEY is not configured');
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, iv);
    cipher.setAAD(Buffer.from(`${purpose}:${shopId}`, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [V2, this.current.id, b64(iv), b64(cipher.getAuthTag()), b64(ct)].join('.');
  }

  /** Null when the value cannot be opened (unknown key, other shop or purpose, tampered). */
  open(purpose: SecretPurpose, shopId: string, sealed: string): string | null {
    const parts = sealed.split('.');
    if (parts[0] === V2 && parts.length === 5) {
      const key = this.keys.get(parts[1]);
      return key ? decrypt(key.bytes, `${purpose}:${shopId}`, parts[2], parts[3], parts[4]) : null;
    }
    if (parts[0] === V1 && parts.length === 4 && purpose === 'platform-token') {
      for (const key of this.keys.values()) {
        const plain = decrypt(key.bytes, shopId, parts[1], parts[2], parts[3]);
        if (plain !== null) return plain;
      }
    }
    return null;
  }

  /** Whether a stored value should be re-sealed: not yet under the current key (or not sealed at all). */
  isStale(stored: string): boolean {
    const parts = stored.split('.');
    return !(parts[0] === V2 && parts.length === 5 && parts[1] === this.current?.id);
  }

  /** True for a value in one of the sealed formats (a legacy clear-text value is not). */
  static isSealed(stored: string): boolean {
    return /^v[12]\./.test(stored);
  }

  /** Store-platform access tokens (kept for callers of the first API). */
  encrypt(shopId: string, plaintext: string): string {
    return this.seal('platform-token', shopId, plaintext);
  }

  decrypt(shopId: string, sealed: string): string | null {
    return this.open('platform-token', shopId, sealed);
  }
}

const b64 = (b: Buffer) => b.toString('base64url');

function decrypt(key: Buffer, aad: string, iv: string, tag: string, ct: string): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
