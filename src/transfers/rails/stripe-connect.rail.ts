import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { railsConfig, type RailsConfig } from '../../config/configuration';
import { toMinorUnits } from '../../common/money';
import { providerPolicy } from './outbound-policy';
import { GuardedStripeHttpClient } from './stripe-http-client';
import {
  PayoutRail,
  RailCredentials,
  RailOutage,
  RailRefusal,
  RailTransfer,
  SendOutcome,
} from './payout-rail';
import { ProviderCalls } from './provider-calls';

const STRIPE_HOSTS = ['api.stripe.com'] as const;

/** The parameters of `transfers.create` for a transfer (exported for the request-mapping test). */
export function stripeTransferParams(t: RailTransfer): Stripe.TransferCreateParams {
  return {
    amount: toMinorUnits(t.amount, t.currency),
    currency: t.currency.toLowerCase(),
    destination: t.destination ?? '',
    transfer_group: t.batchId,
    metadata: { shopId: t.shopId, vendorId: t.vendorId, batchId: t.batchId, transferId: t.id },
  };
}

/**
 * Stripe Connect (the official SDK): one `transfers.create` to the vendor's connected account with
 * the transfer id as idempotency key, so a repeat after a crash or a retried job returns the first
 * transfer instead of making a second. A transfer to a connected account moves the balance at once:
 * the answer means paid (a later `transfer.reversed` webhook reverses it).
 */
@Injectable()
export class StripeConnectRail extends PayoutRail {
  readonly method = 'stripe_connect' as const;

  constructor(
    @Inject(railsConfig.KEY) private readonly cfg: RailsConfig,
    private readonly calls: ProviderCalls,
  ) {
    super();
  }

  /** An SDK client for one shop's key, speaking through the guarded helper (or to stripe-mock). */
  client(secretKey: string): Stripe {
    const base = this.cfg.stripeApiBaseUrl ? new URL(this.cfg.stripeApiBaseUrl) : null;
    return new Stripe(secretKey, {
      httpClient: new GuardedStripeHttpClient(
        providerPolicy(STRIPE_HOSTS, this.cfg.stripeApiBaseUrl, this.cfg.allowLocalTargets),
      ),
      maxNetworkRetries: 1,
      timeout: 30_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === 'http:' ? 80 : 443),
            protocol: base.protocol === 'http:' ? 'http' : 'https',
          }
        : {}),
    });
  }

  async send(t: RailTransfer, creds: RailCredentials): Promise<SendOutcome> {
    if (!creds.stripeSecretKey) {
      throw new RailRefusal(
        'No Stripe secret key is set for this shop (PUT /v1/shop/payout-providers)',
        'stripe',
      );
    }
    if (!t.destination) throw new RailRefusal('The transfer has no Stripe account to pay', 'stripe');
    const created = await this.calls.time('stripe', 'transfers.create', classifyStripeError, () =>
      this.client(creds.stripeSecretKey!).transfers.create(stripeTransferParams(t), { idempotencyKey: t.id }),
    );
    return { kind: 'paid', providerId: created.id, reference: created.id };
  }
}

/** Outage (retry, stay pending) or refusal (counts towards failed), from the SDK's error. */
export function classifyStripeError(err: unknown): RailOutage | RailRefusal {
  const e = err as { type?: string; statusCode?: number; message?: string; code?: string };
  const status = e?.statusCode;
  const what = e?.message ? String(e.message).slice(0, 300) : 'Stripe call failed';
  if (status === undefined || status >= 500 || status === 429 || e.type === 'StripeConnectionError') {
    return new RailOutage(`Stripe unavailable: ${what}`, 'stripe');
  }
  return new RailRefusal(
    `Stripe refused the transfer (HTTP ${status}${e.code ? `, ${e.code}` : ''}): ${what}`,
    'stripe',
  );
}
