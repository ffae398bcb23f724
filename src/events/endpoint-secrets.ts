import { Injectable } from '@nestjs/common';
import { TokenCipher } from '../fulfillments/platform/token-cipher';
import type { ShopScope } from '../common/tenancy';
import type { StoredSecret, WebhookEndpoint } from '../event-port/webhook-endpoint.schema';
import type { SigningSecret } from './webhook-signing';

/** The secrets an attempt signs with, or why it must not be sent. */
export type SigningKeys =
  { ok: true; secrets: SigningSecret[] } | { ok: false; active: number; unreadable: number };

/** Signing secrets at rest: AES-GCM with the shop as associated data (the HMAC needs the secret itself). */
@Injectable()
export class EndpointSecrets {
  constructor(private readonly cipher: TokenCipher) {}

  seal(scope: ShopScope, secrets: SigningSecret[]): StoredSecret[] {
    return secrets.map((s) => ({
      secretEnc: this.cipher.encrypt(scope.shopId, s.secret),
      createdAt: s.createdAt,
      expiresAt: s.expiresAt,
    }));
  }

  /**
   * The secrets that open (an unreadable one is left out): what a secret rotation through the API
   * keeps, so rotating an endpoint's secret is the shop's way out of a secret no key opens.
   */
  reveal(scope: ShopScope, endpoint: Pick<WebhookEndpoint, 'secrets'>): SigningSecret[] {
    const out: SigningSecret[] = [];
    for (const s of endpoint.secrets ?? []) {
      const secret = this.open(scope, s);
      if (secret) out.push(secret);
    }
    return out;
  }

  /**
   * The secrets that sign an attempt at `now`: every active one (the current secret and a replaced
   * one still in its overlap), and all of them must open. A secret no configured key opens
   * (DATA_ENCRYPTION_KEY changed without `secrets:rotate`) refuses the attempt rather than sending
   * it with fewer signatures or none: a receiver holding that secret would reject it anyway.
   */
  forSigning(scope: ShopScope, endpoint: Pick<WebhookEndpoint, 'secrets'>, now: Date): SigningKeys {
    const active = (endpoint.secrets ?? []).filter(
      (s) => !s.expiresAt || new Date(s.expiresAt).getTime() > now.getTime(),
    );
    const secrets = active.map((s) => this.open(scope, s)).filter((s): s is SigningSecret => s !== null);
    if (active.length > 0 && secrets.length === active.length) return { ok: true, secrets };
    return { ok: false, active: active.length, unreadable: active.length - secrets.length };
  }

  private open(scope: ShopScope, s: StoredSecret): SigningSecret | null {
    const secret = this.cipher.decrypt(scope.shopId, s.secretEnc);
    return secret
      ? { secret, createdAt: new Date(s.createdAt), expiresAt: s.expiresAt ? new Date(s.expiresAt) : null }
      : null;
  }
}
