import { Injectable } from '@nestjs/common';
import { TokenCipher } from '../fulfillments/platform/token-cipher';
import type { ShopScope } from '../common/tenancy';
import type { StoredSecret, WebhookEndpoint } from './webhook-endpoint.schema';
import type { SigningSecret } from './webhook-signing';

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

  reveal(scope: ShopScope, endpoint: Pick<WebhookEndpoint, 'secrets'>): SigningSecret[] {
    const out: SigningSecret[] = [];
    for (const s of endpoint.secrets ?? []) {
      const secret = this.cipher.decrypt(scope.shopId, s.secretEnc);
      if (secret)
        out.push({
          secret,
          createdAt: new Date(s.createdAt),
          expiresAt: s.expiresAt ? new Date(s.expiresAt) : null,
        });
    }
    return out;
  }
}
