import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import Redis from 'ioredis';
import { Clock } from '../common/clock/clock';
import { UnauthorizedError, ValidationError } from '../common/errors';
import { ShopScope, shopScope } from '../common/tenancy';
import { appConfig, AppConfig } from '../config/configuration';
import { OrderIngestionService } from '../line-items/order-ingestion.service';
import { PlatformFulfillmentsService } from '../line-items/platform-fulfillments.service';
import { OrdersRepository } from '../orders/orders.repository';
import { ProductsService } from '../products/products.service';
import { addJob, IngestionJobData, Jobs, Queues } from '../queues/jobs';
import { REDIS } from '../redis/redis.module';
import { ShopsService } from '../shops/shops.service';
import { WebhookAckDto } from './dto/webhook.dto';
import { SUPPORTED_TOPICS, WebhookTopic } from './webhook-topics';
import { parseDeletedProductId, parseFulfillment, parseOrder, parseProduct } from './shopify-payloads';

/** Shopify retries a webhook for 48 hours; remember ids a little longer. */
const DEDUPE_TTL_SECONDS = 72 * 3600;
export const INGESTION_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: 1000,
  removeOnFail: false,
};

export interface IncomingWebhook {
  topic?: string;
  shopDomain?: string;
  webhookId?: string;
  hmac?: string;
  rawBody?: Buffer;
  payload: unknown;
}

const SIGNATURE_ERROR = 'Webhook signature verification failed';
/** Known shops are remembered briefly, so accepting a webhook costs no database read. */
const SHOP_CACHE_MS = 30_000;

/** `X-Shopify-Hmac-Sha256`: base64 HMAC-SHA256 of the raw body with the shop's webhook secret. */
export function signatureMatches(secret: string, rawBody: Buffer, header: string): boolean {
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The Bull job id of a webhook (Bull also refuses a second job with the same id). */
export function ingestionJobId(shopId: string, webhookId: string): string {
  return `${shopId}:${webhookId}`;
}

/**
 * Store-platform webhooks (DESIGN §7): `receive` authenticates, de-duplicates and queues in a few
 * milliseconds; `process` (the queue worker) does the writes. Nothing is stored for a request that
 * fails verification.
 */
@Injectable()
export class IngestionService {
  private readonly shopCache = new Map<
    string,
    { shop: { _id: unknown; domain: string; webhookSecret: string }; until: number }
  >();

  constructor(
    private readonly shops: ShopsService,
    private readonly orders: OrdersRepository,
    private readonly orderIngestion: OrderIngestionService,
    private readonly platformFulfillments: PlatformFulfillmentsService,
    private readonly products: ProductsService,
    private readonly clock: Clock,
    @InjectQueue(Queues.Ingestion) private readonly queue: Queue,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  async receive(w: IncomingWebhook): Promise<WebhookAckDto> {
    if (!w.shopDomain || !w.hmac || !w.rawBody) throw new UnauthorizedError(SIGNATURE_ERROR);
    const shop = await this.knownShop(w.shopDomain);
    // An unknown shop answers exactly like a bad signature.
    if (!shop || !signatureMatches(shop.webhookSecret, w.rawBody, w.hmac))
      throw new UnauthorizedError(SIGNATURE_ERROR);
    if (!w.topic) throw new ValidationError('The X-Shopify-Topic header is required');
    if (!(SUPPORTED_TOPICS as readonly string[]).includes(w.topic)) {
      return { received: true, duplicate: false, ignored: true };
    }
    const shopId = String(shop._id);
    // Without an id, an identical body on the same topic counts as the same delivery.
    const webhookId =
      w.webhookId?.trim() ||
      'body-' + createHash('sha256').update(w.topic).update('\0').update(w.rawBody).digest('hex');
    const seenKey = `${this.app.queuePrefix}:webhook-seen:${shopId}:${webhookId}`;
    const first = await this.redis.set(seenKey, '1', 'EX', DEDUPE_TTL_SECONDS, 'NX');
    if (first !== 'OK') return { received: true, duplicate: true, ignored: false };
    const data: IngestionJobData = {
      shopId,
      shopDomain: shop.domain,
      topic: w.topic as WebhookTopic,
      webhookId,
      receivedAt: this.clock.now().toISOString(),
      payload: w.payload,
    };
    try {
      await addJob(this.queue, Jobs.ShopifyWebhook, data, {
        ...INGESTION_JOB_OPTIONS,
        jobId: ingestionJobId(shopId, webhookId),
      });
    } catch (err) {
      // Not queued: forget the id so the platform's retry is accepted.
      await this.redis.del(seenKey).catch(() => undefined);
      throw err;
    }
    return { received: true, duplicate: false, ignored: false };
  }

  private async knownShop(
    domain: string,
  ): Promise<{ _id: unknown; domain: string; webhookSecret: string } | null> {
    const key = domain.trim().toLowerCase();
    const now = Date.now();
    const hit = this.shopCache.get(key);
    if (hit && hit.until > now) return hit.shop;
    const shop = await this.shops.getByDomain(key).catch(() => null);
    if (shop) {
      if (this.shopCache.size > 10_000) this.shopCache.clear();
      this.shopCache.set(key, { shop, until: now + SHOP_CACHE_MS });
    }
    return shop;
  }

  /** The queued work of one webhook. Throws to retry; a `PayloadError` fails the job for good. */
  async process(job: IngestionJobData): Promise<string> {
    const scope = shopScope(job.shopId);
    switch (job.topic) {
      case 'orders/create':
      case 'orders/updated':
      case 'orders/paid':
      case 'orders/cancelled':
        return this.processOrder(scope, job.payload);
      case 'products/create':
      case 'products/update':
        return this.products.ingest(scope, parseProduct(job.payload));
      case 'products/delete':
        await this.products.remove(scope, parseDeletedProductId(job.payload), new Date(job.receivedAt));
        return 'deleted';
      case 'fulfillments/create':
      case 'fulfillments/update': {
        const n = await this.platformFulfillments.apply(scope, parseFulfillment(job.payload));
        return `fulfilled ${n} line item(s)`;
      }
      default:
        return 'ignored';
    }
  }

  /**
   * A new order takes the insert-only path (no reads of existing data); a known order is replaced
   * unless the stored version is newer, then its line items are recomputed.
   */
  private async processOrder(scope: ShopScope, payload: unknown): Promise<string> {
    const order = parseOrder(payload);
    const version = {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      orderName: order.orderName,
      platformCreatedAt: order.createdAt,
      platformUpdatedAt: order.updatedAt,
      raw: payload as Record<string, unknown>,
    };
    if (await this.orders.insertNew(scope, version)) {
      await this.orderIngestion.ingestOrder(scope, order, true);
      return 'created';
    }
    if (!(await this.orders.replaceUnlessNewer(scope, version))) return 'stale';
    await this.orderIngestion.ingestOrder(scope, order, false);
    return 'updated';
  }
}
