import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig, platformConfig, type PlatformConfig } from '../config/configuration';

const VERSION = 's1';

/**
 * Seals stored answers (AES-256-GCM, the record's shop and key as associated data): an answer can
 * hold a secret shown once — a new merchant key — and must not sit readable in the database for
 * 24 h. Keyed by DATA_ENCRYPTION_KEY, else by a key derived from the JWT secret (always set).
 */
@Injectable()
export class ResponseSeal {
  private readonly key: Buffer;

  constructor(
    @Inject(platformConfig.KEY) platform: PlatformConfig,
    @Inject(authConfig.KEY) auth: AuthConfig,
  ) {
    this.key = platform.encryptionKey
      ? createHash('sha256')
          .update('idempotency:')
          .update(Buffer.from(platform.encryptionKey, 'hex'))
          .digest()
      : createHash('sha256').update(`idempotency:${auth.jwtSecret}`).digest();
  }

  seal(context: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ct.toString('base64url'),
    ].join('.');
  }

  /** Null when it cannot be opened (another key or context, tampered). */
  open(context: string, sealed: string): string | null {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ct === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      return null;
    }
  }
}
