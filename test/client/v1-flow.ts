import { type Clients, eventually, expectThat, ok, sendWebhook, type Shop } from './clients';

/** What the v1 part of the flow leaves for the V2 part. */
export interface V1Result {
  shopToken: string;
  vendorId: string;
  vendorName: string;
  orderIds: number[];
}

let nextId = Date.now() * 1000;
const platformId = () => ++nextId;

/** A paid Shopify order with one line of `vendor`, as the platform's orders/create webhook carries it. */
function order(
  vendor: string,
  sku: string,
  createdAt: Date,
): { id: number; payload: Record<string, unknown> } {
  const id = platformId();
  const lineId = platformId();
  return {
    id,
    payload: {
      id,
      name: `#${id % 100000}`,
      order_number: id % 100000,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      financial_status: 'paid',
      currency: 'USD',
      line_items: [{ id: lineId, title: 'Jacket', sku, vendor, price: '80.00', quantity: 2 }],
      shipping_lines: [{ id: 1, title: 'Standard', price: '5.00' }],
    },
  };
}

/**
 * A shop's first day through v1: authenticate → vendor → portal user → SKU upload (the README's
 * body) → products → orders from signed webhooks → an order's line items → a line item update →
 * a fulfillment → payouts and a payout batch.
 */
export async function v1Flow(c: Clients, shop: Shop): Promise<V1Result> {
  const { token } = ok(
    await c.v1().POST('/v1/authenticate', { body: { apiKey: shop.apiKey, shopDomain: shop.shopDomain } }),
  );
  const v1 = c.v1(token);

  const vendorName = 'acme apparel';
  const { vendor } = ok(
    await v1.POST('/v1/vendors', {
      body: { vendorName: 'Acme Apparel', commissionType: 'percentage', commissionAmount: 12 },
    }),
  );
  expectThat(vendor.vendorName === vendorName, `vendor stored as ${vendor.vendorName}`);
  const { user } = ok(
    await v1.POST('/v1/users', {
      body: {
        vendorId: vendor._id,
        email: 'jane@acme.example',
        password: 'S3cure-portal-pass',
        sendEmail: false,
      },
    }),
  );
  expectThat(user.email === 'jane@acme.example', 'user created');

  // The README's body, verbatim: optional commissionType and no commissionAmount must compile.
  const upload = ok(
    await v1.POST('/v1/commissions/sku', {
      body: { skus: [{ sku: 'ACME-JKT-M', commissionRate: 15, costOfGoods: 41.5 }] },
    }),
  );
  expectThat(upload.success && upload.errors.length === 0, `SKU upload: ${JSON.stringify(upload.errors)}`);

  const productId = platformId();
  const now = new Date().toISOString();
  await sendWebhook(c, shop, 'products/create', {
    id: productId,
    title: 'Jacket',
    handle: 'jacket',
    product_type: 'Outerwear',
    vendor: 'Acme Apparel',
    status: 'active',
    tags: 'winter',
    created_at: now,
    updated_at: now,
    variants: [{ id: platformId(), product_id: productId, title: 'M', sku: 'ACME-JKT-M', price: '80.00' }],
    images: [],
  });
  const products = await eventually(async () => {
    const page = ok(await v1.GET('/v1/products', { params: { query: { vendorId: vendor._id } } }));
    return page.total > 0 ? page : undefined;
  }, 'the product webhook');
  expectThat(products.products[0].title === 'Jacket', 'product listed under its vendor');

  const orders = [0, 1, 2].map((i) =>
    order('Acme Apparel', 'ACME-JKT-M', new Date(Date.now() - (3 - i) * 60_000)),
  );
  for (const o of orders) await sendWebhook(c, shop, 'orders/create', o.payload);
  const first = orders[0].id;
  const lines = await eventually(async () => {
    const answer = await v1.GET('/v1/orders/{orderId}', {
      params: { path: { orderId: String(first) }, query: { lineItems: 'true' } },
    });
    const body = answer.data;
    return body?.view === 'lineItems' && body.orders.length > 0 ? body.orders : undefined;
  }, 'the order webhook');
  const line = lines[0];
  expectThat(line.commissionPlan === 'sku:percentage:15', `commission plan ${line.commissionPlan}`);
  expectThat(
    line.commission === 24 && line.costOfItem === 83,
    `figures ${line.commission}/${line.costOfItem}`,
  );

  const raw = ok(await v1.GET('/v1/orders/{orderId}', { params: { path: { orderId: String(first) } } }));
  expectThat(raw.view === 'order' && raw.orders.id === first, 'the raw order');

  const update = ok(
    await v1.POST('/v1/lineitems/update', {
      body: { items: [{ orderId: first, lineItemId: line.lineItemId, fields: { deduction: 2.5 } }] },
    }),
  );
  expectThat(update.updated === 1, `line item update: ${JSON.stringify(update.errors)}`);

  const fulfilled = ok(
    await v1.POST('/v1/fulfillments', {
      body: {
        trackingNumber: '1Z999AA10123456784',
        shippingCarrier: 'UPS',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
        lineItemsToFulfill: [line._id],
      },
    }),
  );
  expectThat(
    fulfilled.fulfillments[0].type === 'success',
    `fulfillment: ${fulfilled.fulfillments[0].message}`,
  );

  const payouts = ok(await v1.GET('/v1/payouts', { params: { query: { vendorId: vendor._id } } }));
  expectThat(payouts.total === 3, `payout rows: ${payouts.total}`);
  const today = new Date().toISOString().slice(0, 10);
  const queued = ok(await v1.POST('/v1/payouts/batches', { body: { vendorId: vendor._id, until: today } }));
  const batchId = queued.batchIds[0];
  const batch = await eventually(async () => {
    const b = ok(await v1.GET('/v1/payouts/batches/{id}', { params: { path: { id: batchId } } }));
    return b.status === 'completed' ? b : undefined;
  }, 'the payout batch');
  expectThat(batch.lineItemCount === 3, `batch paid ${batch.lineItemCount} lines`);

  return { shopToken: token, vendorId: vendor._id, vendorName, orderIds: orders.map((o) => o.id) };
}
