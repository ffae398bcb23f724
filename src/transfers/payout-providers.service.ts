import { Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { ValidationError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { TokenCipher } from '../fulfillments/platform/token-cipher';
import { PayoutProvidersDto, SetPayoutProvidersDto } from './dto/payout-providers.dto';
import { PayoutProviders } from './payout-provider.schema';
import { PayoutProvidersChanges, PayoutProvidersRepository } from './payout-providers.repository';
import type { RailCredentials } from './rails/payout-rail';

const SECRETS = [
  ['stripeSecretKey', 'stripeSecretKeyEnc'],
  ['stripeWebhookSecret', 'stripeWebhookSecretEnc'],
  ['paypalClientId', 'paypalClientIdEnc'],
  ['paypalClientSecret', 'paypalClientSecretEnc'],
] as const;

export const DEFAULT_TRANSFER_CURRENCY = 'USD';

/** What the webhooks need to verify a delivery (decrypted for that one check). */
export interface WebhookSecrets {
  stripeWebhookSecret: string | null;
  paypalWebhookId: string | null;
}

/**
 * A shop's payout provider credentials (DESIGN §10): sealed with the TokenCipher like platform
 * tokens, never returned (the answer says which are set, with a short hint), never logged or put
 * in an audit event (only the fact that one was replaced).
 */
@Injectable()
export class PayoutProvidersService {
  constructor(
    private readonly providers: PayoutProvidersRepository,
    private readonly cipher: TokenCipher,
    private readonly audit: AuditTrail,
  ) {}

  async get(scope: ShopScope): Promise<PayoutProvidersDto> {
    return this.toResponse(scope, await this.providers.find(scope));
  }

  async set(scope: ShopScope, body: SetPayoutProvidersDto): Promise<PayoutProvidersDto> {
    const current = await this.providers.find(scope);
    const mode = body.mode ?? current?.mode ?? 'sandbox';
    const key = body.stripeSecretKey;
    if (key && /_test_/.test(key) !== (mode === 'sandbox')) {
      const msg = `stripeSecretKey must be a ${mode === 'sandbox' ? 'test' : 'live'} key in ${mode} mode`;
      throw new ValidationError(msg, { fields: { stripeSecretKey: [msg] } });
    }
    if (body.mode && !key && current?.stripeSecretKeyEnc) {
      const stored = this.cipher.decrypt(scope.shopId, current.stripeSecretKeyEnc);
      if (stored && /_test_/.test(stored) !== (mode === 'sandbox')) {
        const msg = `The stored Stripe key does not suit ${mode} mode: send a ${mode === 'sandbox' ? 'test' : 'live'} stripeSecretKey with it`;
        throw new ValidationError(msg, { fields: { stripeSecretKey: [msg] } });
      }
    }
    const changes: PayoutProvidersChanges = {};
    if (body.mode) changes.mode = body.mode;
    if (body.currency) changes.currency = body.currency;
    if (body.paypalWebhookId !== undefined) changes.paypalWebhookId = body.paypalWebhookId;
    const replaced: string[] = [];
    for (const [field, sealed] of SECRETS) {
      const value = body[field];
      if (value === undefined) continue;
      changes[sealed] = value === null ? null : this.cipher.encrypt(scope.shopId, value);
      replaced.push(field);
    }
    const stamp = this.audit.begin();
    const before = this.auditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.payout_providers.update',
      { type: 'shop', id: scope.shopId },
      before,
      { ...before, ...this.auditView({ ...(current ?? {}), ...changes } as PayoutProviders) },
      // A new secret is recorded as a fact, never as a value (nor its ciphertext).
      replaced.length ? { after: { secretsReplaced: replaced } } : undefined,
    );
    const saved = await this.providers.set(scope, changes, stamp, event);
    await this.audit.commit(scope, this.providers.outbox, stamp, [event], [saved._id]);
    return this.toResponse(scope, saved);
  }

  /** The decrypted credentials for one rail call (never kept). */
  async credentials(scope: ShopScope): Promise<RailCredentials & { currency: string }> {
    const p = await this.providers.find(scope);
    const open = (v: string | null | undefined) => (v ? this.cipher.decrypt(scope.shopId, v) : null);
    return {
      mode: p?.mode ?? 'sandbox',
      currency: p?.currency ?? DEFAULT_TRANSFER_CURRENCY,
      stripeSecretKey: open(p?.stripeSecretKeyEnc),
      paypalClientId: open(p?.paypalClientIdEnc),
      paypalClientSecret: open(p?.paypalClientSecretEnc),
    };
  }

  /** The shop's transfer currency (default USD). */
  async currency(scope: ShopScope): Promise<string> {
    return (await this.providers.find(scope))?.currency ?? DEFAULT_TRANSFER_CURRENCY;
  }

  /**
   * What verifying a PayPal webhook needs (the shop's webhook id and its API credentials), from one
   * read: an unauthenticated request costs the store as little as possible.
   */
  async paypalWebhook(scope: ShopScope): Promise<{ webhookId: string | null; credentials: RailCredentials }> {
    const p = await this.providers.find(scope);
    const open = (v: string | null | undefined) => (v ? this.cipher.decrypt(scope.shopId, v) : null);
    return {
      webhookId: p?.paypalWebhookId ?? null,
      credentials: {
        mode: p?.mode ?? 'sandbox',
        stripeSecretKey: null,
        paypalClientId: open(p?.paypalClientIdEnc),
        paypalClientSecret: open(p?.paypalClientSecretEnc),
      },
    };
  }

  async webhookSecrets(scope: ShopScope): Promise<WebhookSecrets> {
    const p = await this.providers.find(scope);
    return {
      stripeWebhookSecret: p?.stripeWebhookSecretEnc
        ? this.cipher.decrypt(scope.shopId, p.stripeWebhookSecretEnc)
        : null,
      paypalWebhookId: p?.paypalWebhookId ?? null,
    };
  }

  private auditView(p: Partial<PayoutProviders> | null): Record<string, unknown> {
    return {
      mode: p?.mode ?? 'sandbox',
      currency: p?.currency ?? DEFAULT_TRANSFER_CURRENCY,
      stripeSecretKeySet: !!p?.stripeSecretKeyEnc,
      stripeWebhookSecretSet: !!p?.stripeWebhookSecretEnc,
      paypalClientIdSet: !!p?.paypalClientIdEnc,
      paypalClientSecretSet: !!p?.paypalClientSecretEnc,
      paypalWebhookId: p?.paypalWebhookId ?? null,
    };
  }

  private toResponse(scope: ShopScope, p: PayoutProviders | null): PayoutProvidersDto {
    const key = p?.stripeSecretKeyEnc ? this.cipher.decrypt(scope.shopId, p.stripeSecretKeyEnc) : null;
    const clientId = p?.paypalClientIdEnc ? this.cipher.decrypt(scope.shopId, p.paypalClientIdEnc) : null;
    return {
      mode: p?.mode ?? 'sandbox',
      currency: p?.currency ?? DEFAULT_TRANSFER_CURRENCY,
      stripe: {
        secretKeySet: !!p?.stripeSecretKeyEnc,
        secretKeyHint: key ? `${/^(sk|rk)_(test|live)_/.exec(key)?.[0] ?? ''}…${key.slice(-4)}` : null,
        webhookSecretSet: !!p?.stripeWebhookSecretEnc,
      },
      paypal: {
        clientIdSet: !!p?.paypalClientIdEnc,
        clientIdHint: clientId ? `…${clientId.slice(-4)}` : null,
        clientSecretSet: !!p?.paypalClientSecretEnc,
        webhookId: p?.paypalWebhookId ?? null,
      },
      updatedAt: p?.updatedAt ? new Date(p.updatedAt).toISOString() : null,
    };
  }
}
