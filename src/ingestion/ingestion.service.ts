import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError, UnauthorizedError, ValidationError } from '../common/errors';
import { shopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { WebhookAckDto } from './dto/webhook.dto';
import { BadRequestError } from '../common/errors';
import { Clock } from '../common/clock/clock';
import { parseDateTime } from '../common/dates/date-time';
import { DeliveryRejectionsRepository } from './delivery-rejections.repository';
import { topicShapeProblem } from './topic-shapes';
import { UnknownShopGuard } from './unknown-shop-guard';
import { WebhookInbox } from './webhook-inbox.service';
import { SUPPORTED_TOPICS } from './webhook-topics';

export interface IncomingWebhook {
  topic?: string;
  shopDomain?: string;
  webhookId?: string;
  hmac?: string;
  rawBody?: Buffer;
  /** The client address (unknown-shop throttling). */
  address?: string;
  /** `X-Shopify-Triggered-At` as sent (ISO 8601; unsigned, so only a fallback date). */
  triggeredAt?: string;
}

const SIGNATURE_ERROR = 'Webhook signature verification failed';
/** Known shops are remembered briefly, so accepting a webhook costs one database write. */
const SHOP_CACHE_MS = 30_000;

interface WebhookShop {
  _id: unknown;
  domain: string;
  webhookSecret: string;
}

/** `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body with the shop's webhook secret. */
export function signatureMatches(secret: string, rawBody: Buffer, header: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Store-platform webhooks (DESIGN §7): authenticates a delivery and hands it to the inbox, which
 * stores it before the 200. Nothing is stored for a request that fails verification. When the shop
 * cannot be looked up (the database is down) the error propagates as a 503, never a 401: the
 * platform must retry, not give up on a delivery it was right to send.
 */
@Injectable()
export class IngestionService {
  private readonly shopCache = new Map<string, { shop: WebhookShop; until: number }>();

  constructor(
    private readonly shops: ShopsService,
    private readonly inbox: WebhookInbox,
    private readonly unknownShops: UnknownShopGuard,
    private readonly rejections: DeliveryRejectionsRepository,
    private readonly clock: Clock,
  ) {}

  async receive(w: IncomingWebhook): Promise<WebhookAckDto> {
    if (!w.shopDomain || !w.hmac || !w.rawBody) throw new UnauthorizedError(SIGNATURE_ERROR);
    const shop = await this.knownShop(w.shopDomain, w.address ?? '');
    // An unknown shop answers exactly like a bad signature.
    if (!shop || !signatureMatches(shop.webhookSecret, w.rawBody, w.hmac))
      throw new UnauthorizedError(SIGNATURE_ERROR);
    if (!w.topic) throw new ValidationError('The X-Shopify-Topic header is required');
    if (!(SUPPORTED_TOPICS as readonly string[]).includes(w.topic)) {
      return { received: true, duplicate: false, ignored: true, deliveryId: null };
    }
    // Without an id, an identical body on the same topic counts as the same delivery.
    const webhookId =
      w.webhookId?.trim() ||
      'body-' + createHash('sha256').update(w.topic).update('\0').update(w.rawBody).digest('hex');
    // The signature covers the body, not the topic header: a body must fit its topic.
    const mismatch = topicShapeProblem(w.topic, w.rawBody);
    if (mismatch) {
      await this.rejections.insertRejected(
        shopScope(String(shop._id)),
        {
          shopDomain: shop.domain,
          topic: w.topic,
          webhookId,
          receivedAt: this.clock.now(),
          payload: w.rawBody.toString('utf8'),
        },
        mismatch,
      );
      throw new BadRequestError(mismatch);
    }
    const { deliveryId } = await this.inbox.accept(shopScope(String(shop._id)), {
      shopDomain: shop.domain,
      topic: w.topic,
      webhookId,
      payload: w.rawBody.toString('utf8'),
      triggeredAt: parseDateTime(w.triggeredAt),
    });
    return { received: true, duplicate: deliveryId === null, ignored: false, deliveryId };
  }

  /** The shop of a domain (cached briefly); null when there is none. Database errors propagate. */
  private async knownShop(domain: string, address: string): Promise<WebhookShop | null> {
    const key = domain.trim().toLowerCase();
    const now = Date.now();
    const hit = this.shopCache.get(key);
    if (hit && hit.until > now) return hit.shop;
    if (this.unknownShops.isKnownUnknown(key, now)) return null;
    await this.unknownShops.assertMayLookUp(address);
    let shop: WebhookShop;
    try {
      shop = await this.shops.getForWebhooks(key);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await this.unknownShops.recordMiss(key, address, now);
      return null;
    }
    if (this.shopCache.size > 10_000) this.shopCache.clear();
    this.shopCache.set(key, { shop, until: now + SHOP_CACHE_MS });
    return shop;
  }
}
