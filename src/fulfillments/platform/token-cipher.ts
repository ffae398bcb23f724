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
import { ValidationError } from '../../common/errors';

const VERSION = 'v1';

/**
 * AES-256-GCM for store-platform access tokens at rest, keyed by DATA_ENCRYPTION_KEY. The shop id
 * is the associated data, so a ciphertext copied to another shop does not decrypt. Outside
 * production a missing key falls back to one derived from the JWT secret (development only).
 */
@Injectable()
export class TokenCipher {
  private readonly key: Buffer | null;

  constructor(
    @Inject(platformConfig.KEY) platform: PlatformConfig,
    @Inject(authConfig.KEY) auth: AuthConfig,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    if (platform.encryptionKey) this.key = Buffer.from(platform.encryptionKey, 'hex');
    else if (app.nodeEnv !== 'production') {
      this.key = createHash('sha256').update(`data-encryption:${auth.jwtSecret}`).digest();
    } else this.key = null;
  }

  encrypt(shopId: string, plaintext: string): string {
    if (!this.key) {
      throw new ValidationError(
        'This server cannot store access tokens: DATA_ENCRYPTION_KEY is not configured',
      );
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(shopId, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
  }

  /** Null when the value cannot be decrypted (other key, other shop, tampered). */
  decrypt(shopId: string, sealed: string): string | null {
    const [version, iv, tag, ct] = sealed.split('.');
    if (!this.key || version !== VERSION || !iv || !tag || ct === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(shopId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null;
    }
  }
}
