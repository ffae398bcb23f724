import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { authConfig, type AuthConfig, platformConfig, type PlatformConfig } from '../config/configuration';

const VERSION = 's1';

/** The answers' key: derived from a DATA_ENCRYPTION_KEY (hex), never the key itself. */
function derived(hexKey: string): Buffer {
  return createHash('sha256').update('idempotency:').update(Buffer.from(hexKey, 'hex')).digest();
}

/**
 * Seals stored answers (AES-256-GCM, the record's shop and key as associated data): an answer can
 * hold a secret shown once — a new merchant key — and must not sit readable in the database for
 * 24 h. Keyed by DATA_ENCRYPTION_KEY, else by a key derived from the JWT secret (always set).
 * During a key rotation an answer sealed under DATA_ENCRYPTION_KEY_PREVIOUS still opens, and
 * `secrets:rotate` re-seals the live ones (IdempotencyAnswersRotation, issue 28).
 */
@Injectable()
export class ResponseSeal {
  private readonly key: Buffer;
  private readonly previous: Buffer | null;

  constructor(
    @Inject(platformConfig.KEY) platform: PlatformConfig,
    @Inject(authConfig.KEY) auth: AuthConfig,
  ) {
    this.key = platform.encryptionKey
      ? derived(platform.encryptionKey)
      : createHash('sha256').update(`idempotency:${auth.jwtSecret}`).digest();
    this.previous = platform.previousEncryptionKey ? derived(platform.previousEncryptionKey) : null;
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
    return openWith(this.key, context, sealed) ?? (this.previous && openWith(this.previous, context, sealed));
  }

  /**
   * For the rotation: `current` when the answer opens under the current key, the answer sealed
   * under the current key when only the previous key opens it, null when no configured key does.
   */
  reseal(context: string, sealed: string): string | 'current' | null {
    if (openWith(this.key, context, sealed) !== null) return 'current';
    const plain = this.previous && openWith(this.previous, context, sealed);
    return plain === null ? null : this.seal(context, plain);
  }
}

function openWith(key: Buffer, context: string, sealed: string): string | null {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
