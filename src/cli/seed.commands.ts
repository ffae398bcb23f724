import { createHmac, randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { INestApplicationContext } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { shopScope } from '../common/tenancy';
import { IngestionService } from '../ingestion/ingestion.service';
import { INGESTION_CONCURRENCY, IngestionProcessor } from '../ingestion/ingestion.processor';
import { WebhookInbox } from '../ingestion/webhook-inbox.service';
import { CommissionsService } from '../commissions/commissions.service';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { IngestionJobData, Jobs, Queues } from '../queues/jobs';
import { ShopsService } from '../shops/shops.service';
import { VendorsService } from '../vendors/vendors.service';
import { normaliseVendorName } from '../vendors/vendor-policy';
import { CliCommand, CliUsageError, optionalString } from './cli-command';
import {
  DEMO_SKU_OVERRIDES,
  DEMO_VENDORS,
  Delivery,
  orderPayload,
  productPayloads,
  prng,
} from './demo-catalog';
import { insertDemoRules, parseRuleCount } from './demo-rules';
import { JobWaiter } from './job-waiter';
import { NO_PROGRESS, Progress } from './progress';

const MAX_ORDERS = 1_000_000;
/** Deliveries sent at a time; the next chunk is sent while the one before is still being processed. */
const CHUNK = 100;

const DEFAULT_ORDERS = 50;

function parseOrders(value: string | number | undefined): number {
  if (value === undefined) return DEFAULT_ORDERS;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_ORDERS) {
    throw new CliUsageError(`--orders must be an integer from 0 to ${MAX_ORDERS}`);
  }
  return n;
}

/**
 * Sends the deliveries through the real ingestion path (signature check, the inbox, the queue) and
 * waits until each has been processed, at most two chunks in flight: the next chunk is sent while
 * the one before is processed, so the workers never wait for a whole chunk's last job.
 */
async function ingestAll(
  app: INestApplicationContext,
  shop: { shopId: string; shopDomain: string; webhookSecret: string },
  deliveries: Delivery[],
  progress: Progress,
): Promise<void> {
  const ingestion = app.get(IngestionService, { strict: false });
  const inbox = app.get(WebhookInbox, { strict: false });
  const queue = app.get<Queue<IngestionJobData>>(getQueueToken(Queues.Ingestion), { strict: false });
  // The CLI may run without queue processors: then this command processes its own deliveries, with
  // the same handler as a worker (a payload that can never be processed fails at once).
  const handlers = (queue as unknown as { handlers?: Record<string, unknown> }).handlers ?? {};
  if (!handlers[Jobs.ShopifyWebhook]) {
    // the worker's own handler: a payload that can never be processed fails at once
    const processor = new IngestionProcessor(inbox);
    void queue.process(Jobs.ShopifyWebhook, INGESTION_CONCURRENCY, (job: Job<IngestionJobData>) =>
      processor.handle(job),
    );
  }
  let done = 0;
  progress.update(done, deliveries.length);
  const waiter = new JobWaiter(queue, () => progress.update(++done, deliveries.length));
  try {
    let previous: Promise<void> = Promise.resolve();
    for (let i = 0; i < deliveries.length; i += CHUNK) {
      const chunk = deliveries.slice(i, i + CHUNK);
      const ids = await Promise.all(
        chunk.map(async (d) => {
          const rawBody = Buffer.from(JSON.stringify(d.payload));
          const webhookId = `demo-${randomBytes(12).toString('hex')}`;
          const ack = await ingestion.receive({
            topic: d.topic,
            shopDomain: shop.shopDomain,
            webhookId,
            hmac: createHmac('sha256', shop.webhookSecret).update(rawBody).digest('base64'),
            rawBody,
          });
          return ack.deliveryId;
        }),
      );
      await previous;
      previous = waiter.wait(ids.filter((id): id is string => !!id));
      // a failure is thrown by the await above (next chunk) or below (last one), never left unhandled
      previous.catch(() => undefined);
    }
    await previous;
  } finally {
    waiter.close();
    progress.stop();
  }
}

export const seedCommands: CliCommand[] = [
  {
    name: 'seed:demo',
    description:
      'Create a demo shop (3 vendors, SKU overrides, 7 products, N orders) by sending signed webhooks ' +
      'through the ingestion path; prints its credentials. Progress on stderr.',
    options: [
      {
        flags: '--orders <n>',
        description: 'orders to create (0-1000000)',
        defaultValue: DEFAULT_ORDERS,
        parse: parseOrders,
      },
      { flags: '--domain <domain>', description: 'shop domain (default: a random demo-….myshopify.com)' },
      {
        flags: '--product-rules <n>',
        description: 'commission rules of level product to store first (the demo products first; default 0)',
      },
      {
        flags: '--type-rules <n>',
        description: 'commission rules of level productType to store first (the demo types first; default 0)',
      },
    ],
    /**
     * A demo shop with vendors, SKU overrides, products and N orders, all sent as signed webhooks
     * through the ingestion path; prints the credentials.
     */
    run: async (app, args, progress = NO_PROGRESS) => {
      const orders = parseOrders(args.orders);
      const domain = optionalString(args, 'domain') ?? `demo-${randomBytes(4).toString('hex')}.myshopify.com`;
      const created = await app.get(ShopsService).create({ domain, name: 'Demo marketplace' });
      const scope = shopScope(created.shopId);
      // Vendors and SKU overrides go through the same services as the API.
      const vendors = [];
      for (const v of DEMO_VENDORS) {
        const vendorName = normaliseVendorName(v.vendorName)!;
        vendors.push(await app.get(VendorsService, { strict: false }).create(scope, { ...v, vendorName }));
      }
      await app.get(CommissionsService, { strict: false }).uploadSkus(scope, {
        skus: DEMO_SKU_OVERRIDES.map(({ commissionAmount, ...s }) => ({
          ...s,
          commissionRate: commissionAmount,
        })),
      });
      const merchant = await app.get(MerchantKeysService).create(scope, 'demo');

      const now = new Date();
      const base = Math.floor(now.getTime() / 1000) * 1000;
      const products = productPayloads(base, now);
      const variants = products.flatMap((p) => p.variants);
      const ruleCounts = {
        products: parseRuleCount('--product-rules', args['product-rules'] ?? args.productRules),
        types: parseRuleCount('--type-rules', args['type-rules'] ?? args.typeRules),
      };
      if (ruleCounts.products + ruleCounts.types > 0)
        await insertDemoRules(
          app,
          scope,
          {
            productIds: products.map((p) => p.payload.id as number),
            types: [...new Set(products.map((p) => String(p.payload.product_type)))],
            vendorId: String(vendors[0]._id),
          },
          ruleCounts,
        );
      const rnd = prng(42);
      const deliveries: Delivery[] = [
        ...products.map((p) => ({ topic: 'products/create' as const, payload: p.payload })),
        ...Array.from({ length: orders }, (_, i) => ({
          topic: 'orders/create' as const,
          payload: orderPayload(i, base, now, variants, rnd),
        })),
      ];
      await ingestAll(app, created, deliveries, progress('webhooks'));
      const orderIds = deliveries
        .filter((d) => d.topic === 'orders/create')
        .map((d) => d.payload.id as number);
      const lineItems = deliveries
        .filter((d) => d.topic === 'orders/create')
        .reduce((n, d) => n + (d.payload.line_items as unknown[]).length, 0);
      return {
        shopId: created.shopId,
        shopDomain: created.shopDomain,
        apiKey: created.apiKey,
        webhookSecret: created.webhookSecret,
        merchantKey: merchant.key,
        vendors: vendors.map((v) => ({ vendorId: String(v._id), vendorName: v.vendorName })),
        skuOverrides: DEMO_SKU_OVERRIDES.map((s) => s.sku),
        products: products.length,
        orders: orders,
        lineItems,
        refunds: deliveries.filter((d) => ((d.payload.refunds as unknown[] | undefined) ?? []).length > 0)
          .length,
        sampleOrderId: orderIds[0] ?? null,
      };
    },
  },
];
