import { Injectable, OnModuleInit } from '@nestjs/common';
import Stripe from 'stripe';
import { NotFoundError, ServiceUnavailableError, UnauthorizedError } from '../common/errors';
import { fromMinorUnits } from '../common/money';
import { ShopScope, shopScope, toObjectId } from '../common/tenancy';
import { WebhookAckDto } from '../ingestion/dto/webhook.dto';
import { WebhookInbox } from '../ingestion/webhook-inbox.service';
import { WebhookTopicHandlers } from '../ingestion/webhook-topic-handlers';
import { ShopsRepository } from '../shops/shops.repository';
import { PayoutProvidersService } from './payout-providers.service';
import { RailOutage } from './rails/payout-rail';
import { PaypalPayoutItem } from './rails/paypal-client';
import { paypalOutcome, PaypalRail } from './rails/paypal.rail';
import { TransferRunner } from './transfer-runner.service';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

const SIGNATURE_ERROR = 'Webhook signature verification failed';
/** The Stripe events that change a transfer; others are acknowledged and ignored. */
export const STRIPE_TOPICS = ['transfer.reversed'] as const;
/** PayPal's payout item events (PAYMENT.PAYOUTS-ITEM.SUCCEEDED, .FAILED, .RETURNED, .UNCLAIMED, …). */
const PAYPAL_ITEM_EVENT = /^PAYMENT\.PAYOUTS-ITEM\.[A-Z_]+$/;

export interface PaypalHeaders {
  authAlgo?: string;
  certUrl?: string;
  transmissionId?: string;
  transmissionSig?: string;
  transmissionTime?: string;
}

/**
 * Payment-provider webhooks (DESIGN §10): verified, then stored in the durable inbox the Shopify
 * webhooks use (topic `stripe/<type>` / `paypal/<event_type>`, de-duplicated by the provider's
 * event id) before the 200, and applied from there by the ingestion queue through the handlers
 * registered here. The shop comes from `?shop=<domain>` (the URL registered at the provider), or for
 * Stripe from the transfer's metadata we set; either way only the shop's own secret verifies.
 */
@Injectable()
export class ProviderWebhooksService implements OnModuleInit {
  constructor(
    private readonly shops: ShopsRepository,
    private readonly providers: PayoutProvidersService,
    private readonly inbox: WebhookInbox,
    private readonly handlers: WebhookTopicHandlers,
    private readonly transfers: TransfersRepository,
    private readonly service: TransfersService,
    private readonly runner: TransferRunner,
    private readonly paypal: PaypalRail,
  ) {}

  onModuleInit(): void {
    this.handlers.register('stripe', (scope, topic, payload) => this.applyStripe(scope, topic, payload));
    this.handlers.register('paypal', (scope, topic, payload) => this.applyPaypal(scope, topic, payload));
  }

  async receiveStripe(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    shopDomain?: string,
  ): Promise<WebhookAckDto> {
    if (!rawBody || !signature) throw new UnauthorizedError(SIGNATURE_ERROR);
    const shop = await this.shopOf(shopDomain, () => stripeShopHint(rawBody));
    if (!shop) throw new UnauthorizedError(SIGNATURE_ERROR);
    const scope = shopScope(String(shop._id));
    const { stripeWebhookSecret } = await this.providers.webhookSecrets(scope);
    if (!stripeWebhookSecret) throw new UnauthorizedError(SIGNATURE_ERROR);
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, stripeWebhookSecret);
    } catch {
      throw new UnauthorizedError(SIGNATURE_ERROR);
    }
    if (!(STRIPE_TOPICS as readonly string[]).includes(event.type)) {
      return { received: true, duplicate: false, ignored: true, deliveryId: null };
    }
    return this.store(scope, shop.domain, `stripe/${event.type}`, `stripe:${event.id}`, rawBody);
  }

  async receivePaypal(
    rawBody: Buffer | undefined,
    h: PaypalHeaders,
    shopDomain?: string,
  ): Promise<WebhookAckDto> {
    if (
      !rawBody ||
      !h.authAlgo ||
      !h.certUrl ||
      !h.transmissionId ||
      !h.transmissionSig ||
      !h.transmissionTime
    ) {
      throw new UnauthorizedError(SIGNATURE_ERROR);
    }
    const shop = await this.shopOf(shopDomain, () => null);
    if (!shop) throw new UnauthorizedError(SIGNATURE_ERROR);
    const scope = shopScope(String(shop._id));
    const { paypalWebhookId } = await this.providers.webhookSecrets(scope);
    let event: { id?: string; event_type?: string };
    try {
      event = JSON.parse(rawBody.toString('utf8')) as typeof event;
    } catch {
      throw new UnauthorizedError(SIGNATURE_ERROR);
    }
    if (!paypalWebhookId || !event?.id || !event.event_type) throw new UnauthorizedError(SIGNATURE_ERROR);
    let verified: boolean;
    try {
      const account = this.paypal.account(await this.providers.credentials(scope));
      verified = await this.paypal.api.verifyWebhookSignature(account, {
        auth_algo: h.authAlgo,
        cert_url: h.certUrl,
        transmission_id: h.transmissionId,
        transmission_sig: h.transmissionSig,
        transmission_time: h.transmissionTime,
        webhook_id: paypalWebhookId,
        webhook_event: event,
      });
    } catch (err) {
      // PayPal could not be asked: nothing is acknowledged, so PayPal delivers again.
      if (err instanceof RailOutage)
        throw new ServiceUnavailableError('PayPal could not verify the webhook now');
      throw new UnauthorizedError(SIGNATURE_ERROR);
    }
    if (!verified) throw new UnauthorizedError(SIGNATURE_ERROR);
    if (!PAYPAL_ITEM_EVENT.test(event.event_type)) {
      return { received: true, duplicate: false, ignored: true, deliveryId: null };
    }
    return this.store(scope, shop.domain, `paypal/${event.event_type}`, `paypal:${event.id}`, rawBody);
  }

  /**
   * `stripe/transfer.reversed`: Stripe sends one per reversal, its Transfer object carrying the
   * running total reversed (`amount_reversed`). The paid or reversed transfer is reversed up to that
   * total and credited back the increase, once; an older or repeated total changes nothing.
   */
  async applyStripe(scope: ShopScope, topic: string, payload: unknown): Promise<string> {
    const object = (payload as { data?: { object?: StripeTransferObject } })?.data?.object;
    if (topic !== 'stripe/transfer.reversed' || !object?.id) return 'ignored';
    const t = await this.transfers.findByProviderId(scope, object.id);
    if (!t) return 'ignored: no transfer with this Stripe id';
    if (t.state !== 'paid' && t.state !== 'reversed') return `ignored: transfer is ${t.state}`;
    const minor = stripeReversedTotal(object);
    const reversed = fromMinorUnits(minor, t.currency);
    if (!(reversed > 0)) return 'ignored: nothing reversed';
    const moved = await this.service.reverse(
      scope,
      t,
      reversed,
      'webhook:stripe',
      `Stripe reversed ${reversed} ${t.currency} in total`,
    );
    return moved ? 'reversed' : 'ignored: already reversed that far';
  }

  /** `paypal/PAYMENT.PAYOUTS-ITEM.*`: the item's status decides, as a follow-up lookup would. */
  async applyPaypal(scope: ShopScope, topic: string, payload: unknown): Promise<string> {
    const item = (payload as { resource?: PaypalPayoutItem })?.resource;
    if (!item) return 'ignored: no resource';
    let t = item.payout_batch_id ? await this.transfers.findByProviderId(scope, item.payout_batch_id) : null;
    const senderItem = item.payout_item?.sender_item_id;
    if (!t && senderItem && toObjectId(senderItem)) t = await this.transfers.findById(scope, senderItem);
    if (!t) return 'ignored: no transfer for this payout';
    return this.runner.applyOutcome(scope, t, paypalOutcome(undefined, item), 'webhook:paypal');
  }

  private async store(
    scope: ShopScope,
    shopDomain: string,
    topic: string,
    webhookId: string,
    rawBody: Buffer,
  ) {
    const { deliveryId } = await this.inbox.accept(scope, {
      shopDomain,
      topic,
      webhookId,
      payload: rawBody.toString('utf8'),
    });
    return { received: true, duplicate: deliveryId === null, ignored: false, deliveryId };
  }

  /** The shop named by `?shop=`, else by the (unverified) hint; null when unknown. */
  private async shopOf(domain: string | undefined, hint: () => string | null) {
    try {
      if (domain) return await this.shops.findByDomain(domain.trim().toLowerCase());
      const id = hint();
      return id ? await this.shops.findById(id) : null;
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }
}

interface StripeTransferObject {
  id?: string;
  amount?: number;
  amount_reversed?: number;
  reversed?: boolean;
  reversals?: { data?: Array<{ amount?: number }> };
  metadata?: { shopId?: string };
}

/**
 * The total reversed so far, in minor units: `amount_reversed` (Stripe always sends it), else the
 * sum of the listed reversals, else all of it when the object says `reversed`.
 */
export function stripeReversedTotal(o: StripeTransferObject): number {
  if (Number.isSafeInteger(o.amount_reversed)) return o.amount_reversed!;
  const listed = (o.reversals?.data ?? []).map((r) => r.amount).filter((a) => Number.isSafeInteger(a));
  if (listed.length) return listed.reduce((s: number, a) => s + a!, 0);
  return o.reversed === true && Number.isSafeInteger(o.amount) ? o.amount! : 0;
}

/** The shop id our transfer metadata carries (only a hint: the shop's own secret must verify). */
function stripeShopHint(rawBody: Buffer): string | null {
  try {
    const e = JSON.parse(rawBody.toString('utf8')) as { data?: { object?: StripeTransferObject } };
    const id = e?.data?.object?.metadata?.shopId;
    return typeof id === 'string' && toObjectId(id) ? id : null;
  } catch {
    return null;
  }
}
