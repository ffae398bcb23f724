import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Types } from 'mongoose';
import Stripe from 'stripe';
import { Clock } from '../common/clock/clock';
import { NotFoundError, ServiceUnavailableError, UnauthorizedError } from '../common/errors';
import { fromMinorUnits } from '../common/money';
import { ShopScope, shopScope } from '../common/tenancy';
import { providerWebhooksConfig, type ProviderWebhooksConfig } from '../config/configuration';
import { WebhookAckDto } from '../ingestion/dto/webhook.dto';
import { UnknownShopGuard } from '../ingestion/unknown-shop-guard';
import { WebhookInbox } from '../ingestion/webhook-inbox.service';
import { WebhookTopicHandlers } from '../ingestion/webhook-topic-handlers';
import { Shop } from '../shops/shop.schema';
import { ShopsRepository } from '../shops/shops.repository';
import { PayoutProvidersService } from './payout-providers.service';
import {
  PAYPAL_ITEM_EVENT,
  paypalEventHead,
  stripeEventType,
  stripeShopHint,
  transmissionTimeProblem,
} from './provider-webhook-intake';
import { RailOutage } from './rails/payout-rail';
import { PaypalPayoutItem } from './rails/paypal-client';
import { paypalOutcome, PaypalRail } from './rails/paypal.rail';
import { TransferRunner } from './transfer-runner.service';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

const SIGNATURE_ERROR = 'Webhook signature verification failed';
/** The Stripe events that change a transfer; others are acknowledged and ignored. */
export const STRIPE_TOPICS = ['transfer.reversed'] as const;
/** The answer to an event that changes nothing: acknowledged (the provider stops sending it), not stored. */
const IGNORED: WebhookAckDto = { received: true, duplicate: false, ignored: true, deliveryId: null };

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
    private readonly unknownShops: UnknownShopGuard,
    private readonly clock: Clock,
    @Inject(providerWebhooksConfig.KEY) private readonly cfg: ProviderWebhooksConfig,
  ) {}

  onModuleInit(): void {
    this.handlers.register('stripe', (scope, topic, payload) => this.applyStripe(scope, topic, payload));
    this.handlers.register('paypal', (scope, topic, payload) => this.applyPaypal(scope, topic, payload));
  }

  /**
   * A Stripe webhook. Before any read: the signature header must be there, and an event type that
   * changes nothing is acknowledged unverified (nothing stored, nothing read); a shop already found
   * unknown is refused from memory.
   */
  async receiveStripe(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    shopDomain?: string,
    address = '',
  ): Promise<WebhookAckDto> {
    if (!rawBody || !signature) throw new UnauthorizedError(SIGNATURE_ERROR);
    const type = stripeEventType(rawBody);
    if (type === null) throw new UnauthorizedError(SIGNATURE_ERROR);
    if (!(STRIPE_TOPICS as readonly string[]).includes(type)) return IGNORED;
    const shop = await this.shopOf(shopDomain, () => stripeShopHint(rawBody), address);
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
    if (!(STRIPE_TOPICS as readonly string[]).includes(event.type)) return IGNORED;
    return this.store(scope, shop.domain, `stripe/${event.type}`, `stripe:${event.id}`, rawBody);
  }

  /**
   * A PayPal webhook. Everything that costs nothing comes before what costs a read or a call to
   * PayPal (the body's size is capped by the route: 413): the headers, the body's shape, the event
   * type (only PAYMENT.PAYOUTS-ITEM.* is ever verified; others are acknowledged unverified and not
   * stored), the transmission time's window, then a shop already found unknown (from memory). Only
   * then the shop, its PayPal settings (one read) and PayPal's verification.
   */
  async receivePaypal(
    rawBody: Buffer | undefined,
    h: PaypalHeaders,
    shopDomain?: string,
    address = '',
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
    const event = paypalEventHead(rawBody);
    if (!event) throw new UnauthorizedError(SIGNATURE_ERROR);
    if (!PAYPAL_ITEM_EVENT.test(event.event_type)) return IGNORED;
    const late = transmissionTimeProblem(h.transmissionTime, this.clock.now(), this.cfg.paypalToleranceMs);
    if (late) throw new UnauthorizedError(late);
    if (!shopDomain) throw new UnauthorizedError(SIGNATURE_ERROR);
    const shop = await this.shopOf(shopDomain, () => null, address);
    if (!shop) throw new UnauthorizedError(SIGNATURE_ERROR);
    const scope = shopScope(String(shop._id));
    const { webhookId, credentials } = await this.providers.paypalWebhook(scope);
    if (!webhookId) throw new UnauthorizedError(SIGNATURE_ERROR);
    let verified: boolean;
    try {
      verified = await this.paypal.api.verifyWebhookSignature(this.paypal.account(credentials), {
        auth_algo: h.authAlgo,
        cert_url: h.certUrl,
        transmission_id: h.transmissionId,
        transmission_sig: h.transmissionSig,
        transmission_time: h.transmissionTime,
        webhook_id: webhookId,
        webhook_event: event,
      });
    } catch (err) {
      // PayPal could not be asked: nothing is acknowledged, so PayPal delivers again.
      if (err instanceof RailOutage)
        throw new ServiceUnavailableError('PayPal could not verify the webhook now');
      throw new UnauthorizedError(SIGNATURE_ERROR);
    }
    if (!verified) throw new UnauthorizedError(SIGNATURE_ERROR);
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
    // Also by the transfer id we sent as metadata: a crash after Stripe made it leaves it pending
    // with no Stripe id recorded. Not paid yet: thrown, so the inbox applies the event again later
    // (once a lookup has recorded it paid) instead of acknowledging it lost.
    const own = object.metadata?.transferId;
    const t =
      (await this.transfers.findByProviderId(scope, object.id)) ??
      (own && Types.ObjectId.isValid(own) ? await this.transfers.findById(scope, own) : null);
    if (!t) return 'ignored: no transfer with this Stripe id';
    if (t.providerId && t.providerId !== object.id) return "ignored: not this transfer's Stripe transfer";
    if (t.state === 'pending' || t.state === 'sent') {
      throw new Error(
        `Stripe reversed ${object.id} of transfer ${String(t._id)}, not recorded paid yet; applied again later`,
      );
    }
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

  /**
   * `paypal/PAYMENT.PAYOUTS-ITEM.*`: the item's status decides, as a follow-up lookup would, for the
   * transfer whose current payout is the event's `payout_batch_id`. An event of another payout batch
   * sent for the same transfer (`sender_item_id`: an earlier attempt) is about money that is not this
   * attempt's, and a pending transfer is being sent again: both are ignored (the rail follows the
   * payout it sends to its own outcome).
   */
  async applyPaypal(scope: ShopScope, topic: string, payload: unknown): Promise<string> {
    const item = (payload as { resource?: PaypalPayoutItem })?.resource;
    if (!item) return 'ignored: no resource';
    if (!item.payout_batch_id) return 'ignored: no payout_batch_id';
    const t = await this.transfers.findByProviderId(scope, item.payout_batch_id);
    if (!t) {
      const senderItem = item.payout_item?.sender_item_id;
      return senderItem
        ? `ignored: payout batch ${item.payout_batch_id} is not the current payout of transfer ${senderItem}`
        : 'ignored: no transfer for this payout';
    }
    if (t.state === 'pending') return 'ignored: transfer is pending (being sent again)';
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

  /**
   * The shop named by `?shop=`, else by the (unverified) hint; null when unknown. A name found
   * unknown is remembered for a minute (no read for its repeats), and an address whose lookups keep
   * missing is refused (429) before any read: the Shopify webhooks' guard, shared.
   */
  private async shopOf(domain: string | undefined, hint: () => string | null, address: string) {
    const name = domain?.trim().toLowerCase();
    const id = name ? null : hint();
    const key = name || (id ? `id:${id}` : null);
    if (!key) return null;
    if (this.unknownShops.isKnownUnknown(key)) return null;
    await this.unknownShops.assertMayLookUp(address);
    let shop: Shop | null;
    try {
      shop = name ? await this.shops.findByDomain(name) : await this.shops.findById(id!);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      shop = null;
    }
    if (!shop) await this.unknownShops.recordMiss(key, address);
    return shop;
  }
}

interface StripeTransferObject {
  id?: string;
  amount?: number;
  amount_reversed?: number;
  reversed?: boolean;
  reversals?: { data?: Array<{ amount?: number }> };
  metadata?: { transferId?: string };
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
