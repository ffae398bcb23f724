import { createHmac, randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { INestApplicationContext } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { shopScope } from '../common/tenancy';
import { IngestionService } from '../ingestion/ingestion.service';
import { isLastAttempt } from '../ingestion/ingestion.processor';
import { WebhookInbox } from '../ingestion/webhook-inbox.service';
import { CommissionsService } from '../commissions/commissions.service';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { IngestionJobData, Jobs, Queues } from '../queues/jobs';
import { ShopsService } from '../shops/shops.service';
import { VendorsService } from '../vendors/vendors.service';
import { normaliseVendorName } from '../vendors/vendor-policy';
import { CliArgs, CliCommand, CliUsageError } from './cli-command';
import {
  DEMO_SKU_OVERRIDES,
  DEMO_VENDORS,
  Delivery,
  orderPayload,
  productPayloads,
  prng,
} from './demo-catalog';

const MAX_ORDERS = 1_000_000;
const IN_FLIGHT = 200;

function ordersArg(args: CliArgs): number {
  if (args.orders === undefined) return 50;
  const n = Number(args.orders);
  if (!Number.isInteger(n) || n < 0 || n > MAX_ORDERS) {
    throw new CliUsageError(`--orders must be an integer from 0 to ${MAX_ORDERS}`);
  }
  return n;
}

/**
 * Sends the deliveries through the real ingestion path (signature check, the inbox, the queue) and
 * waits until each has been processed, a bounded number in flight at a time.
 */
async function ingestAll(
  app: INestApplicationContext,
  shop: { shopId: string; shopDomain: string; webhookSecret: string },
  deliveries: Delivery[],
): Promise<void> {
  const ingestion = app.get(IngestionService, { strict: false });
  const inbox = app.get(WebhookInbox, { strict: false });
  const queue = app.get<Queue<IngestionJobData>>(getQueueToken(Queues.Ingestion), { strict: false });
  // The CLI may run without queue processors: then this command processes its own deliveries.
  const handlers = (queue as unknown as { handlers?: Record<string, unknown> }).handlers ?? {};
  if (!handlers[Jobs.ShopifyWebhook]) {
    void queue.process(Jobs.ShopifyWebhook, 6, (job: Job<IngestionJobData>) =>
      inbox.process(job.data, { final: isLastAttempt(job) }),
    );
  }
  for (let i = 0; i < deliveries.length; i += IN_FLIGHT) {
    const chunk = deliveries.slice(i, i + IN_FLIGHT);
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
    await Promise.all(
      ids.map(async (deliveryId) => {
        const job = deliveryId ? await queue.getJob(deliveryId) : null;
        if (job) await job.finished();
      }),
    );
  }
}

export const seedCommands: CliCommand[] = [
  {
    name: 'seed:demo',
    usage: 'seed:demo [--orders N] [--domain D]',
    /**
     * A demo shop with vendors, SKU overrides, products and N orders, all sent as signed webhooks
     * through the ingestion path; prints the credentials.
     */
    run: async (app, args) => {
      const orders = ordersArg(args);
      if (args.domain === true) throw new CliUsageError('--domain needs a value');
      const domain = args.domain ?? `demo-${randomBytes(4).toString('hex')}.myshopify.com`;
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
      const rnd = prng(42);
      const deliveries: Delivery[] = [
        ...products.map((p) => ({ topic: 'products/create' as const, payload: p.payload })),
        ...Array.from({ length: orders }, (_, i) => ({
          topic: 'orders/create' as const,
          payload: orderPayload(i, base, now, variants, rnd),
        })),
      ];
      await ingestAll(app, created, deliveries);
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
        sampleOrderId: orderIds[0] ?? null,
      };
    },
  },
];
