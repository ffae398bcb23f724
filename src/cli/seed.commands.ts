import { createHmac, randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { INestApplicationContext } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { shopScope } from '../common/tenancy';
import {
  INGESTION_JOB,
  IngestionJobData,
  ingestionJobId,
  IngestionService,
  WebhookTopic,
} from '../ingestion/ingestion.service';
import { INGESTION_CONCURRENCY, IngestionProcessor } from '../ingestion/ingestion.processor';
import { PricingInputsRepository } from '../line-items/pricing-inputs.repository';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { Queues } from '../queues/queues';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, CliUsageError, optionalString } from './cli-command';
import { JobWaiter } from './job-waiter';
import { NO_PROGRESS, Progress } from './progress';

const VENDORS = [
  { vendorName: 'Acme Apparel', commissionType: 'percentage' as const, commissionAmount: 12 },
  { vendorName: 'Globex Gadgets', commissionType: 'flat' as const, commissionAmount: 1.5 },
  { vendorName: 'Initech Home', commissionType: 'percentage' as const, commissionAmount: 8 },
];

/** The demo catalogue: vendor (as the store sends it), product, variants (SKU, price). */
const CATALOG = [
  {
    vendor: 'Acme Apparel',
    title: 'Organic Tee',
    variants: [
      ['ACME-TEE-S', '24.00'],
      ['ACME-TEE-M', '24.00'],
      ['ACME-TEE-L', '26.00'],
    ],
  },
  {
    vendor: 'Acme Apparel',
    title: 'Rain Jacket',
    variants: [
      ['ACME-JKT-M', '89.90'],
      ['ACME-JKT-L', '89.90'],
    ],
  },
  { vendor: 'Globex Gadgets', title: 'USB-C Charger', variants: [['GLX-CHG-65', '39.99']] },
  { vendor: 'Globex Gadgets', title: 'Wireless Earbuds', variants: [['GLX-BUDS', '59.00']] },
  { vendor: 'Initech Home', title: 'Stoneware Mug', variants: [['INI-MUG', '14.50']] },
  { vendor: 'Initech Home', title: 'Linen Throw', variants: [['INI-THROW', '72.00']] },
  // A vendor with no account yet: its lines stay unassigned until one is created and recalculated.
  { vendor: 'Umbrella Crafts', title: 'Hand-carved Spoon', variants: [['UMB-SPOON', '18.00']] },
] as const;

/** SKU overrides: a commission (and cost of goods) that wins over the vendor's. */
const SKU_OVERRIDES = [
  { sku: 'ACME-JKT-M', commissionType: 'percentage' as const, commissionAmount: 15, costOfGoods: 41.5 },
  { sku: 'ACME-JKT-L', commissionType: 'percentage' as const, commissionAmount: 15, costOfGoods: 43 },
  { sku: 'GLX-BUDS', commissionType: 'flat' as const, commissionAmount: 4, costOfGoods: 22.75 },
  { sku: 'INI-MUG', commissionType: 'percentage' as const, commissionAmount: 0, costOfGoods: 5.2 },
];

const MAX_ORDERS = 1_000_000;
const IN_FLIGHT = 200;

/** Deterministic pseudo-random numbers, so a demo looks the same every time. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const DEFAULT_ORDERS = 50;

function parseOrders(value: string | number | undefined): number {
  if (value === undefined) return DEFAULT_ORDERS;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_ORDERS) {
    throw new CliUsageError(`--orders must be an integer from 0 to ${MAX_ORDERS}`);
  }
  return n;
}

interface Delivery {
  topic: WebhookTopic;
  payload: Record<string, unknown>;
}

function productPayloads(
  base: number,
  now: Date,
): Array<{
  payload: Record<string, unknown>;
  variants: Array<{
    id: number;
    sku: string;
    price: string;
    productId: number;
    title: string;
    vendor: string;
  }>;
}> {
  return CATALOG.map((p, i) => {
    const id = base + 1 + i;
    const variants = p.variants.map(([sku, price], j) => ({
      id: id * 10 + j,
      sku,
      price,
      productId: id,
      title: p.title,
      vendor: p.vendor,
    }));
    return {
      variants,
      payload: {
        id,
        title: p.title,
        handle: p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        product_type: p.vendor.split(' ')[1] ?? 'General',
        vendor: p.vendor,
        status: 'active',
        tags: 'demo, marketplace',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        variants: variants.map((v, j) => ({
          id: v.id,
          product_id: id,
          title: p.variants.length > 1 ? v.sku.split('-').pop() : 'Default Title',
          sku: v.sku,
          price: v.price,
          inventory_quantity: 20 + j * 5,
          requires_shipping: true,
          position: j + 1,
        })),
        images: [
          {
            id: id * 100,
            product_id: id,
            position: 1,
            src: `https://cdn.example.com/demo/${id}.jpg`,
            alt: p.title,
          },
        ],
      },
    };
  });
}

function orderPayload(
  i: number,
  base: number,
  now: Date,
  variants: ReturnType<typeof productPayloads>[number]['variants'],
  rnd: () => number,
): Record<string, unknown> {
  const id = base + 1000 + i;
  const created = new Date(now.getTime() - Math.floor(rnd() * 30 * 24 * 3600 * 1000));
  const lineCount = 1 + Math.floor(rnd() * 3);
  const lines = Array.from({ length: lineCount }, (_, j) => {
    const v = variants[Math.floor(rnd() * variants.length)];
    const quantity = 1 + Math.floor(rnd() * 3);
    const discount = rnd() < 0.25 ? ((Number(v.price) * quantity) / 10).toFixed(2) : null;
    return {
      id: id * 10 + j,
      title: v.title,
      name: v.title,
      variant_title: null,
      sku: v.sku,
      vendor: v.vendor,
      product_id: v.productId,
      variant_id: v.id,
      quantity,
      price: v.price,
      discount_allocations: discount ? [{ amount: discount, discount_application_index: 0 }] : [],
      tax_lines: [
        { price: ((Number(v.price) * quantity * 8) / 100).toFixed(2), rate: 0.08, title: 'Sales tax' },
      ],
      fulfillment_status: null,
      requires_shipping: true,
    };
  });
  const financial = rnd() < 0.75 ? 'paid' : rnd() < 0.5 ? 'pending' : 'partially_paid';
  return {
    id,
    name: `#${1000 + i + 1}`,
    order_number: 1000 + i + 1,
    email: `customer${i}@example.com`,
    currency: 'USD',
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    financial_status: financial,
    cancelled_at: null,
    note: i % 7 === 0 ? 'Gift wrap, please' : null,
    customer: {
      id: base + 500000 + i,
      email: `customer${i}@example.com`,
      first_name: 'Demo',
      last_name: `Customer ${i}`,
    },
    shipping_address: {
      first_name: 'Demo',
      last_name: `Customer ${i}`,
      address1: `${i + 1} Market St`,
      city: 'Springfield',
      zip: '12345',
      country: 'United States',
    },
    billing_address: {
      first_name: 'Demo',
      last_name: `Customer ${i}`,
      address1: `${i + 1} Market St`,
      city: 'Springfield',
      country: 'United States',
    },
    shipping_lines: [{ title: 'Standard', code: 'STD', price: rnd() < 0.3 ? '0.00' : '6.90' }],
    line_items: lines,
    fulfillments: [],
  };
}

/**
 * Sends the deliveries through the real ingestion path (signature check, de-duplication, queue) and
 * waits until each has been processed, a bounded number in flight at a time.
 */
async function ingestAll(
  app: INestApplicationContext,
  shop: { shopId: string; shopDomain: string; webhookSecret: string },
  deliveries: Delivery[],
  progress: Progress,
): Promise<void> {
  const ingestion = app.get(IngestionService, { strict: false });
  const queue = app.get<Queue<IngestionJobData>>(getQueueToken(Queues.Ingestion), { strict: false });
  // The CLI may run without queue processors: then this command processes its own deliveries, with
  // the same handler as a worker (a payload that can never be processed fails at once).
  const handlers = (queue as unknown as { handlers?: Record<string, unknown> }).handlers ?? {};
  if (!handlers[INGESTION_JOB]) {
    const processor = new IngestionProcessor(ingestion);
    void queue.process(INGESTION_JOB, INGESTION_CONCURRENCY, (job: Job<IngestionJobData>) =>
      processor.handle(job),
    );
  }
  let done = 0;
  progress.update(done, deliveries.length);
  const waiter = new JobWaiter(queue, () => progress.update(++done, deliveries.length));
  try {
    for (let i = 0; i < deliveries.length; i += IN_FLIGHT) {
      const chunk = deliveries.slice(i, i + IN_FLIGHT);
      const ids = await Promise.all(
        chunk.map(async (d) => {
          const rawBody = Buffer.from(JSON.stringify(d.payload));
          const webhookId = `demo-${randomBytes(12).toString('hex')}`;
          await ingestion.receive({
            topic: d.topic,
            shopDomain: shop.shopDomain,
            webhookId,
            hmac: createHmac('sha256', shop.webhookSecret).update(rawBody).digest('base64'),
            rawBody,
            payload: d.payload,
          });
          return ingestionJobId(shop.shopId, webhookId);
        }),
      );
      await waiter.wait(ids);
    }
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
      const pricing = app.get(PricingInputsRepository, { strict: false });
      const vendors = [];
      for (const v of VENDORS) vendors.push(await pricing.seedVendor(scope, v));
      for (const s of SKU_OVERRIDES) await pricing.seedSkuCommission(scope, s);
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
        skuOverrides: SKU_OVERRIDES.map((s) => s.sku),
        products: products.length,
        orders: orders,
        lineItems,
        sampleOrderId: orderIds[0] ?? null,
      };
    },
  },
];
