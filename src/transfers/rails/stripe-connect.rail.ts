import { Inject, Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { providerTimeoutFor, railsConfig, type RailsConfig } from '../../config/configuration';
import { fromMinorUnits, toMinorUnits } from '../../common/money';
import { providerPolicy } from './outbound-policy';
import { GuardedStripeHttpClient } from './stripe-http-client';
import {
  FollowOutcome,
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
      // PROVIDER_CALL_TRIES − 1; a try's timeout derived from the transfer lease, so the whole call
      // (both tries and the slack) ends before another attempt may take the transfer over
      maxNetworkRetries: 1,
      timeout: providerTimeoutFor(this.cfg.leaseMs),
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
    const key = secretKey(creds);
    if (!t.destination) throw new RailRefusal('The transfer has no Stripe account to pay', 'stripe');
    const created = await this.calls.time('stripe', 'transfers.create', classifyStripeError, () =>
      this.client(key).transfers.create(stripeTransferParams(t), { idempotencyKey: t.id }),
    );
    return { kind: 'paid', providerId: created.id, reference: created.id };
  }

  /**
   * Asks Stripe what became of the transfer: by its id when we recorded it (`transfers.retrieve`),
   * else among the transfers of its batch's `transfer_group` (the one whose metadata names this
   * transfer). A transfer Stripe made is paid — with what Stripe has reversed of it since, if
   * anything; none at Stripe is `absent` (never made: it may be sent, with the same key).
   */
  override async follow(t: RailTransfer, creds: RailCredentials): Promise<FollowOutcome> {
    const key = secretKey(creds);
    const client = this.client(key);
    const found = t.providerId
      ? await this.calls.time('stripe', 'transfers.retrieve', classifyStripeError, () =>
          client.transfers.retrieve(t.providerId!),
        )
      : await this.calls.time('stripe', 'transfers.list', classifyStripeError, async () => {
          const page = await client.transfers.list({ transfer_group: t.batchId, limit: 100 });
          return page.data.find((x) => x.metadata?.transferId === t.id) ?? null;
        });
    if (!found) return { kind: 'absent', providerStatus: null };
    const reversedMinor = found.amount_reversed ?? 0;
    return {
      kind: 'paid',
      providerStatus: found.reversed ? 'reversed' : 'created',
      reference: found.id,
      providerId: found.id,
      ...(reversedMinor > 0 ? { reversed: fromMinorUnits(reversedMinor, t.currency) } : {}),
    };
  }
}

function secretKey(creds: RailCredentials): string {
  if (!creds.stripeSecretKey) {
    throw new RailRefusal(
      'No Stripe secret key is set for this shop (PUT /v1/shop/payout-providers)',
      'stripe',
    );
  }
  return creds.stripeSecretKey;
}

/**
 * Outage (retry with the same key, stay pending, never counted) or refusal (counts towards failed),
 * from the SDK's error. Only an answer that says the transfer was NOT made is a refusal: an
 * idempotency conflict — 409 while another request with the key is in flight, or the SDK's
 * StripeIdempotencyError — says nothing of the first request's outcome (it may have paid), so it is
 * an unknown outcome, like a timeout or a 5xx; counting it could fail and credit back a transfer
 * that succeeded.
 */
export function classifyStripeError(err: unknown): RailOutage | RailRefusal {
  const e = err as { type?: string; rawType?: string; statusCode?: number; message?: string; code?: string };
  const status = e?.statusCode;
  const what = e?.message ? String(e.message).slice(0, 300) : 'Stripe call failed';
  if (status === 409 || e.type === 'StripeIdempotencyError' || e.rawType === 'idempotency_error') {
    return new RailOutage(
      `Stripe outcome unknown (HTTP ${status ?? '?'}, idempotency conflict; retried with the same key): ${what}`,
      'stripe',
    );
  }
  if (status === undefined || status >= 500 || status === 429 || e.type === 'StripeConnectionError') {
    return new RailOutage(`Stripe unavailable: ${what}`, 'stripe');
  }
  return new RailRefusal(
    `Stripe refused the transfer (HTTP ${status}${e.code ? `, ${e.code}` : ''}): ${what}`,
    'stripe',
  );
}
