// Store-platform traffic for the benchmarks: Shopify-format orders, signed webhook delivery, a
// bounded-concurrency pool and a queue-drain wait (shared by the dataflow and scale groups).
const { createHmac, randomUUID } = require('node:crypto');
const Bull = require('bull');
const harness = require('./harness');

const QUEUE_PREFIX = process.env.QUEUE_PREFIX || 'mp';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** A Shopify order with the given lines ([sku, vendor, price]); ids derived from `id`. */
function shopifyOrder(id, i, createdAt, lines, opts = {}) {
  return {
    id,
    name: `#${100000 + i}`,
    order_number: 100000 + i,
    created_at: createdAt,
    updated_at: createdAt,
    financial_status: opts.financialStatus ?? (i % 4 ? 'paid' : 'pending'),
    currency: 'USD',
    customer: { id: id + 1, email: `c${i}@example.com`, first_name: 'Bench', last_name: String(i) },
    shipping_address: { first_name: 'Bench', last_name: String(i), address1: '1 Main St', city: 'Springfield', country: 'US' },
    shipping_lines: [{ price: '6.90' }],
    line_items: lines.map(([sku, vendor, price], j) => ({
      id: id * 10 + j,
      title: sku,
      name: sku,
      sku,
      vendor,
      product_id: 1000 + j,
      variant_id: 2000 + j,
      quantity: 1 + ((i + j) % 3),
      price,
      discount_allocations: (i + j) % 5 === 0 ? [{ amount: '2.00' }] : [],
      tax_lines: [{ price: '1.20' }],
      fulfillment_status: null,
    })),
  };
}

/** Posts one signed webhook exactly as the platform does. */
async function sendWebhook(shop, topic, payload) {
  const raw = JSON.stringify(payload);
  const res = await fetch(`${harness.BASE}/webhooks/shopify`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': shop.shopDomain,
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-hmac-sha256': createHmac('sha256', shop.webhookSecret).update(raw).digest('base64'),
    },
    body: raw,
  });
  if (!res.ok) throw new Error(`webhook ${topic} → ${res.status} ${(await res.text()).slice(0, 200)}`);
}

/** Runs `fn` over `items` with at most `concurrency` in flight. */
async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

/** Resolves when the named Bull queue has nothing waiting, active or delayed. */
async function drained(queueName, timeoutMs) {
  const queue = new Bull(queueName, REDIS_URL, { prefix: QUEUE_PREFIX });
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = await queue.getJobCounts();
      if (c.waiting + c.active + c.delayed === 0) return c;
      if (Date.now() > deadline) throw new Error(`${queueName} queue not drained: ${JSON.stringify(c)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await queue.close();
  }
}

module.exports = { shopifyOrder, sendWebhook, pool, drained };
