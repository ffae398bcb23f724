import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { toDecimalString } from '../../common/money';
import { providerTimeoutFor, railsConfig, type RailsConfig } from '../../config/configuration';
import { providerPolicy } from './outbound-policy';
import {
  PAYPAL_BASE_URLS,
  PAYPAL_HOSTS,
  PaypalAccount,
  PaypalClient,
  PaypalPayoutRequest,
} from './paypal-client';
import {
  FollowOutcome,
  PayoutRail,
  RailCredentials,
  RailRefusal,
  RailTransfer,
  SendOutcome,
} from './payout-rail';
import { ProviderCalls } from './provider-calls';

/** Item states that end a PayPal payout without the money reaching the vendor. */
export const PAYPAL_FAILED_STATES = new Set([
  'FAILED',
  'RETURNED',
  'BLOCKED',
  'REFUNDED',
  'REVERSED',
  'DENIED',
  'CANCELED',
]);

/** The create-payout body of a transfer: one item, sender_batch_id = sender_item_id = transfer id. */
export function paypalPayoutRequest(t: RailTransfer): PaypalPayoutRequest {
  return {
    sender_batch_header: {
      sender_batch_id: t.id,
      email_subject: 'You have a payout',
      recipient_type: t.recipientType ?? 'EMAIL',
    },
    items: [
      {
        recipient_type: t.recipientType ?? 'EMAIL',
        amount: { value: toDecimalString(t.amount, t.currency), currency: t.currency.toUpperCase() },
        receiver: t.destination ?? '',
        note: `Payout batch ${t.batchId}`,
        sender_item_id: t.id,
      },
    ],
  };
}

/**
 * PayPal Payouts: one payout with one item per transfer (sender_batch_id = transfer id, so PayPal
 * itself refuses a second payout for it within 30 days), then the item's status is followed
 * (GET the payout batch) until SUCCESS or a failure state. UNCLAIMED is followed too: the service
 * fails it after 30 days.
 */
@Injectable()
export class PaypalRail extends PayoutRail {
  readonly method = 'paypal' as const;
  private readonly client: PaypalClient;

  constructor(
    @Inject(railsConfig.KEY) private readonly cfg: RailsConfig,
    private readonly calls: ProviderCalls,
    clock: Clock,
  ) {
    super();
    this.client = new PaypalClient(
      providerPolicy(
        PAYPAL_HOSTS,
        cfg.paypalApiBaseUrl,
        cfg.allowLocalTargets,
        providerTimeoutFor(cfg.leaseMs),
      ),
      () => clock.now().getTime(),
    );
  }

  account(creds: RailCredentials): PaypalAccount {
    if (!creds.paypalClientId || !creds.paypalClientSecret) {
      throw new RailRefusal(
        'No PayPal client id and secret are set for this shop (PUT /v1/shop/payout-providers)',
        'paypal',
      );
    }
    return {
      baseUrl: this.cfg.paypalApiBaseUrl ?? PAYPAL_BASE_URLS[creds.mode],
      clientId: creds.paypalClientId,
      clientSecret: creds.paypalClientSecret,
    };
  }

  get api(): PaypalClient {
    return this.client;
  }

  async send(t: RailTransfer, creds: RailCredentials): Promise<SendOutcome> {
    if (!t.destination) throw new RailRefusal('The transfer has no PayPal receiver', 'paypal');
    const account = this.account(creds);
    const header = await this.calls.time('paypal', 'payouts.create', toRefusal, () =>
      this.client.createPayout(account, paypalPayoutRequest(t)),
    );
    return { kind: 'sent', providerId: header.payout_batch_id, providerStatus: header.batch_status ?? null };
  }

  override async follow(t: RailTransfer, creds: RailCredentials): Promise<FollowOutcome> {
    if (!t.providerId) return { kind: 'pending', providerStatus: null };
    const account = this.account(creds);
    const batch = await this.calls.time('paypal', 'payouts.get', toRefusal, () =>
      this.client.getPayoutBatch(account, t.providerId!),
    );
    return paypalOutcome(batch.batch_header.batch_status, batch.items?.[0]);
  }
}

/** What a payout batch's (only) item says about the transfer. */
export function paypalOutcome(
  batchStatus: string | undefined,
  item:
    | { transaction_status?: string; transaction_id?: string; errors?: { message?: string; name?: string } }
    | undefined,
): FollowOutcome {
  const status = item?.transaction_status?.toUpperCase();
  if (status === 'SUCCESS')
    return { kind: 'paid', providerStatus: status, reference: item?.transaction_id ?? null };
  if (status && PAYPAL_FAILED_STATES.has(status)) {
    const why = item?.errors?.message ?? item?.errors?.name ?? `item ${status}`;
    return { kind: 'failed', providerStatus: status, reason: `PayPal payout item ${status}: ${why}` };
  }
  if (!status && (batchStatus === 'DENIED' || batchStatus === 'CANCELED')) {
    return { kind: 'failed', providerStatus: batchStatus, reason: `PayPal payout batch ${batchStatus}` };
  }
  return { kind: 'pending', providerStatus: status ?? batchStatus ?? null };
}

function toRefusal(err: unknown): RailRefusal {
  return new RailRefusal(`PayPal call failed: ${(err as Error)?.message ?? 'unknown'}`, 'paypal');
}
