/* eslint-disable @typescript-eslint/no-explicit-any */
import { createHmac, randomUUID } from 'node:crypto';
import { shopScope } from '../../src/common/tenancy';
import { WebhookDeliveriesRepository } from '../../src/ingestion/webhook-deliveries.repository';
import type { TestApp } from './app';
import type { ApiResponse } from './http';

/**
 * Store-platform webhooks for e2e tests: Shopify REST Admin JSON builders (money as strings, as
 * Shopify sends it), a signer, and a sender that posts to POST /webhooks/shopify exactly as the
 * platform does (raw body + X-Shopify-* headers), plus a wait for the queued processing.
 */

export interface WebhookShop {
  shopId: string;
  shopDomain: string;
  webhookSecret: string;
}

let seq = Math.floor(Math.random() * 1000);
/** A fresh store-platform id (a safe integer, unique within the test process). */
export function platformId(): number {
  seq = (seq + 1) % 1000;
  return Date.now() * 1000 + seq;
}

type Money = string | number;
const money = (v: Money | undefined | null, fallback = '0.00'): string =>
  v === undefined || v === null ? fallback : typeof v === 'number' ? v.toFixed(2) : v;

export interface ShopifyLineInput {
  id?: number;
  title?: string;
  variantTitle?: string | null;
  sku?: string | null;
  vendor?: string | null;
  price: Money;
  quantity: number;
  productId?: number | null;
  variantId?: number | null;
  /** Discount allocation amounts. */
  discounts?: Money[];
  /** Tax line prices. */
  taxes?: Money[];
  fulfillmentStatus?: 'fulfilled' | 'partial' | null;
}

export interface ShopifyOrderInput {
  id?: number;
  orderNumber?: number;
  name?: string;
  createdAt?: Date | string;
  updatedAt?: Date | string;
  financialStatus?: string;
  cancelledAt?: Date | string | null;
  /** Shipping line prices. */
  shipping?: Money[];
  note?: string | null;
  customer?: { id?: number; email?: string; firstName?: string; lastName?: string } | null;
  lineItems: ShopifyLineInput[];
  fulfillments?: Array<Record<string, unknown>>;
}

const iso = (d: Date | string | undefined | null, fallback: Date): string =>
  d === undefined || d === null ? fallback.toISOString() : typeof d === 'string' ? d : d.toISOString();

/** A Shopify order (orders/create, orders/updated, orders/paid, orders/cancelled payload). */
export function shopifyOrder(input: ShopifyOrderInput): Record<string, any> {
  const id = input.id ?? platformId();
  const orderNumber = input.orderNumber ?? 1000 + (id % 100000);
  const created = input.createdAt ? new Date(input.createdAt) : new Date();
  const lineItems = input.lineItems.map((l) => {
    const lineId = l.id ?? platformId();
    return {
      id: lineId,
      admin_graphql_api_id: `gid://shopify/LineItem/${lineId}`,
      title: l.title ?? `Product ${l.sku ?? lineId}`,
      name: l.variantTitle
        ? `${l.title ?? 'Product'} - ${l.variantTitle}`
        : (l.title ?? `Product ${l.sku ?? lineId}`),
      variant_title: l.variantTitle ?? null,
      sku: l.sku ?? null,
      vendor: l.vendor ?? null,
      product_id: l.productId ?? null,
      variant_id: l.variantId ?? null,
      quantity: l.quantity,
      price: money(l.price),
      total_discount: '0.00',
      discount_allocations: (l.discounts ?? []).map((a, i) => ({
        amount: money(a),
        discount_application_index: i,
      })),
      tax_lines: (l.taxes ?? []).map((p) => ({ price: money(p), rate: 0.1, title: 'Tax' })),
      fulfillment_status: l.fulfillmentStatus ?? null,
      requires_shipping: true,
      taxable: true,
      gift_card: false,
    };
  });
  const subtotal = input.lineItems.reduce((s, l) => s + Number(money(l.price)) * l.quantity, 0);
  const shipping = (input.shipping ?? []).map((p, i) => ({
    id: i + 1,
    title: 'Standard',
    code: 'STD',
    price: money(p),
  }));
  const c =
    input.customer === undefined
      ? { id: platformId(), email: 'jane@example.com', firstName: 'Jane', lastName: 'Doe' }
      : input.customer;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: input.name ?? `#${orderNumber}`,
    order_number: orderNumber,
    number: orderNumber - 1000,
    email: c?.email ?? null,
    currency: 'USD',
    created_at: created.toISOString(),
    updated_at: iso(input.updatedAt, created),
    processed_at: created.toISOString(),
    cancelled_at: input.cancelledAt ? iso(input.cancelledAt, created) : null,
    cancel_reason: input.cancelledAt ? 'customer' : null,
    financial_status: input.financialStatus ?? 'pending',
    fulfillment_status: null,
    subtotal_price: subtotal.toFixed(2),
    total_price: subtotal.toFixed(2),
    total_tax: '0.00',
    total_discounts: '0.00',
    note: input.note ?? null,
    customer: c
      ? {
          id: c.id ?? platformId(),
          email: c.email ?? null,
          first_name: c.firstName ?? null,
          last_name: c.lastName ?? null,
        }
      : null,
    shipping_address: {
      first_name: 'Jane',
      last_name: 'Doe',
      address1: '1 Main St',
      city: 'Springfield',
      zip: '12345',
      country: 'United States',
    },
    billing_address: {
      first_name: 'Jane',
      last_name: 'Doe',
      address1: '1 Main St',
      city: 'Springfield',
      country: 'United States',
    },
    shipping_lines: shipping,
    line_items: lineItems,
    fulfillments: input.fulfillments ?? [],
  };
}

/** The same order one version later (orders/updated, orders/paid, …): bumps updated_at by `ms`. */
export function nextVersion(
  order: Record<string, any>,
  changes: Record<string, any> = {},
  ms = 1000,
): Record<string, any> {
  return {
    ...order,
    ...changes,
    updated_at: new Date(new Date(order.updated_at).getTime() + ms).toISOString(),
  };
}

export interface ShopifyProductInput {
  id?: number;
  title?: string;
  handle?: string;
  productType?: string;
  vendor?: string;
  status?: 'active' | 'draft' | 'archived';
  tags?: string[];
  createdAt?: Date | string;
  updatedAt?: Date | string;
  variants?: Array<{
    id?: number;
    title?: string;
    sku?: string;
    price?: Money;
    inventoryQuantity?: number;
    requiresShipping?: boolean;
  }>;
}

/** A Shopify product (products/create, products/update payload). */
export function shopifyProduct(input: ShopifyProductInput = {}): Record<string, any> {
  const id = input.id ?? platformId();
  const created = input.createdAt ? new Date(input.createdAt) : new Date();
  const title = input.title ?? `Product ${id}`;
  const variants = input.variants ?? [
    { title: 'Default Title', sku: `SKU-${id}`, price: '10.00', inventoryQuantity: 5 },
  ];
  return {
    id,
    title,
    handle: input.handle ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    product_type: input.productType ?? 'Shirts',
    vendor: input.vendor ?? '',
    status: input.status ?? 'active',
    tags: (input.tags ?? []).join(', '),
    created_at: created.toISOString(),
    updated_at: iso(input.updatedAt, created),
    variants: variants.map((v, i) => ({
      id: v.id ?? platformId(),
      product_id: id,
      title: v.title ?? `Variant ${i + 1}`,
      sku: v.sku ?? null,
      price: money(v.price, '10.00'),
      inventory_quantity: v.inventoryQuantity ?? 0,
      requires_shipping: v.requiresShipping ?? true,
      position: i + 1,
    })),
    images: [
      { id: platformId(), product_id: id, position: 1, src: `https://cdn.example.com/${id}.jpg`, alt: title },
    ],
  };
}

export interface ShopifyFulfillmentInput {
  id?: number;
  orderId: number;
  lineItemIds: number[];
  status?: 'success' | 'pending' | 'open' | 'cancelled' | 'error' | 'failure';
  trackingCompany?: string | null;
  trackingNumber?: string | null;
  trackingUrl?: string | null;
  shipmentStatus?: string | null;
  createdAt?: Date | string;
  updatedAt?: Date | string;
}

/** A Shopify fulfillment (fulfillments/create, fulfillments/update payload). */
export function shopifyFulfillment(input: ShopifyFulfillmentInput): Record<string, any> {
  const created = input.createdAt ? new Date(input.createdAt) : new Date();
  return {
    id: input.id ?? platformId(),
    order_id: input.orderId,
    status: input.status ?? 'success',
    created_at: created.toISOString(),
    updated_at: iso(input.updatedAt, created),
    tracking_company: input.trackingCompany === undefined ? 'UPS' : input.trackingCompany,
    tracking_number: input.trackingNumber === undefined ? '1Z999AA10123456784' : input.trackingNumber,
    tracking_numbers: input.trackingNumber === null ? [] : [input.trackingNumber ?? '1Z999AA10123456784'],
    tracking_url:
      input.trackingUrl === undefined
        ? 'https://www.ups.com/track?tracknum=1Z999AA10123456784'
        : input.trackingUrl,
    shipment_status: input.shipmentStatus ?? null,
    line_items: input.lineItemIds.map((id) => ({ id })),
  };
}

/** `X-Shopify-Hmac-Sha256` for a raw body. */
export function signWebhook(secret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

export interface SendOptions {
  webhookId?: string;
  /** Override the signature (e.g. a wrong one); null sends none. */
  hmac?: string | null;
  shopDomain?: string;
  /** Send this body verbatim instead of JSON.stringify(payload). */
  rawBody?: string;
  /** More headers the platform sends (e.g. `x-shopify-triggered-at`). */
  headers?: Record<string, string>;
}

/** Posts a signed webhook like the platform does. The response carries the webhook id used. */
export async function sendWebhook(
  t: TestApp,
  shop: WebhookShop,
  topic: string,
  payload: unknown,
  opts: SendOptions = {},
): Promise<ApiResponse & { webhookId: string }> {
  const webhookId = opts.webhookId ?? randomUUID();
  const raw = opts.rawBody ?? JSON.stringify(payload);
  const headers: Record<string, string> = {
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': opts.shopDomain ?? shop.shopDomain,
    'x-shopify-webhook-id': webhookId,
    'x-shopify-api-version': '2024-10',
    ...opts.headers,
  };
  const hmac = opts.hmac === undefined ? signWebhook(shop.webhookSecret, raw) : opts.hmac;
  if (hmac !== null) headers['x-shopify-hmac-sha256'] = hmac;
  const res = await t.api.request('POST', '/webhooks/shopify', undefined, { raw, headers });
  return { ...res, webhookId };
}

/**
 * Waits until the stored deliveries of these webhooks are processed (whichever test app's worker
 * picked them up), reading the inbox; rejects when one failed or the time runs out.
 */
export async function waitForWebhooks(
  t: TestApp,
  shop: WebhookShop,
  webhookIds: string[],
  timeoutMs = 20000,
): Promise<void> {
  const deliveries = t.app.get(WebhookDeliveriesRepository, { strict: false });
  const scope = shopScope(shop.shopId);
  const deadline = Date.now() + timeoutMs;
  for (const id of webhookIds) {
    for (;;) {
      const d = await deliveries.findByWebhookId(scope, id);
      if (d?.state === 'processed') break;
      if (d?.state === 'failed') throw new Error(`webhook ${id} failed: ${d.lastError}`);
      if (Date.now() > deadline) throw new Error(`webhook ${id} not processed within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Sends a signed webhook, expects 200 and waits for it to be processed. Returns the webhook id. */
export async function deliver(
  t: TestApp,
  shop: WebhookShop,
  topic: string,
  payload: unknown,
  opts: SendOptions = {},
): Promise<string> {
  const res = await sendWebhook(t, shop, topic, payload, opts);
  if (res.status !== 200) throw new Error(`webhook ${topic} answered ${res.status} ${res.text}`);
  await waitForWebhooks(t, shop, [res.webhookId]);
  return res.webhookId;
}

/** Retries `check` until it stops throwing (for work queued behind a response, e.g. recalculation). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 20000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
