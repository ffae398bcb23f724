/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { deliver, sendWebhook, shopifyProduct, waitForWebhooks } from '../support/webhooks';

describe('GET /v1/products (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acme: { _id: string };
  let globex: { _id: string };
  const base = Date.UTC(2026, 1, 1);
  const acmeIds: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'products');
    other = await createShop(t, 'products-other');
    acme = await createVendor(t, shop, 'Acme');
    globex = await createVendor(t, shop, 'Globex');
    // 5 Acme products (vendor field in other letter cases), 2 Globex, 1 of a vendor that does not exist.
    for (let i = 0; i < 8; i++) {
      const vendor = i < 5 ? (i % 2 ? 'ACME' : 'acme ') : i < 7 ? 'Globex' : 'Ghost Goods';
      const p = shopifyProduct({
        title: `Product ${i}`,
        vendor,
        tags: ['summer', `t${i}`],
        createdAt: new Date(base + i * 60_000),
        variants: [
          { sku: `P${i}-S`, price: '10.00', inventoryQuantity: 3, requiresShipping: i !== 4 },
          { sku: `P${i}-M`, price: '12.50', inventoryQuantity: 4, requiresShipping: i !== 4 },
        ],
      });
      await deliver(t, shop, 'products/create', p);
      if (i < 5) acmeIds.push(String(p.id));
    }
  });
  afterAll(() => t.close());

  const get = (q = '', s: TestShop = shop) => t.api.get(`/v1/products${q}`, { token: s.token });

  it('lists products newest first in the 2.6 shape, with the vendor resolved by name', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(8);
    expect(res.body.nextOffset).toBeNull();
    expect(res.body.products.map((p: any) => p.title)).toEqual(
      [7, 6, 5, 4, 3, 2, 1, 0].map((i) => `Product ${i}`),
    );
    const p4 = res.body.products.find((p: any) => p.title === 'Product 4');
    expect(p4).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      productId: acmeIds[4],
      title: 'Product 4',
      handle: 'product-4',
      productType: 'Shirts',
      vendor: 'acme ',
      vendorId: acme._id,
      status: 'active',
      totalInventory: 7,
      isDigital: true,
      variants: [
        {
          id: expect.stringMatching(/^\d+$/),
          title: 'Variant 1',
          sku: 'P4-S',
          price: 10,
          inventoryQuantity: 3,
          requiresShipping: false,
        },
        {
          id: expect.stringMatching(/^\d+$/),
          title: 'Variant 2',
          sku: 'P4-M',
          price: 12.5,
          inventoryQuantity: 4,
          requiresShipping: false,
        },
      ],
      images: [
        {
          id: expect.stringMatching(/^\d+$/),
          src: expect.stringContaining('https://'),
          alt: 'Product 4',
          position: 1,
        },
      ],
      tags: ['summer', 't4'],
      createdAt: new Date(base + 4 * 60_000).toISOString(),
      updatedAt: new Date(base + 4 * 60_000).toISOString(),
    });
    expect(res.body.products.find((p: any) => p.title === 'Product 5')).toMatchObject({
      vendorId: globex._id,
      isDigital: false,
    });
    expect(res.body.products.find((p: any) => p.title === 'Product 7')).toMatchObject({
      vendor: 'Ghost Goods',
      vendorId: null,
    });
  });

  it('filters by vendorId and pages with limit/offset (nextOffset null on the last page)', async () => {
    const p1 = await get(`?vendorId=${acme._id}&limit=2`);
    expect(p1.body).toMatchObject({ total: 5, nextOffset: 2 });
    const p2 = await get(`?vendorId=${acme._id}&limit=2&offset=2`);
    expect(p2.body).toMatchObject({ total: 5, nextOffset: 4 });
    const p3 = await get(`?vendorId=${acme._id}&limit=2&offset=4`);
    expect(p3.body).toMatchObject({ total: 5, nextOffset: null });
    const ids = [...p1.body.products, ...p2.body.products, ...p3.body.products].map((p: any) => p.productId);
    expect(ids).toEqual([...acmeIds].reverse());
    const past = await get(`?vendorId=${acme._id}&limit=2&offset=10`);
    expect(past.body).toEqual({ total: 5, nextOffset: null, products: [] });
    const exact = await get(`?vendorId=${globex._id}&limit=2`);
    expect(exact.body).toMatchObject({ total: 2, nextOffset: null });
  });

  it('products/update changes a product; an older update arriving late is ignored; products/delete removes it', async () => {
    const p = shopifyProduct({ title: 'Mutable', vendor: 'Globex', createdAt: new Date(base + 30 * 60_000) });
    await deliver(t, shop, 'products/create', p);
    const v2 = {
      ...p,
      title: 'Mutable v2',
      status: 'draft',
      updated_at: new Date(base + 40 * 60_000).toISOString(),
    };
    await deliver(t, shop, 'products/update', v2);
    const stale = { ...p, title: 'Mutable stale', updated_at: new Date(base + 35 * 60_000).toISOString() };
    await deliver(t, shop, 'products/update', stale);
    let found = (await get(`?vendorId=${globex._id}`)).body.products.find(
      (x: any) => x.productId === String(p.id),
    );
    expect(found).toMatchObject({ title: 'Mutable v2', status: 'draft' });
    await deliver(t, shop, 'products/delete', { id: p.id });
    found = (await get(`?vendorId=${globex._id}`)).body.products.find(
      (x: any) => x.productId === String(p.id),
    );
    expect(found).toBeUndefined();
    // A late create after the delete does not bring it back.
    await deliver(t, shop, 'products/create', p);
    expect((await get()).body.products.find((x: any) => x.productId === String(p.id))).toBeUndefined();
    // Replaying a create is idempotent.
    const again = (await get()).body.total;
    await deliver(
      t,
      shop,
      'products/create',
      shopifyProduct({
        id: Number(acmeIds[0]),
        title: 'Product 0',
        vendor: 'acme ',
        createdAt: new Date(base),
      }),
    );
    expect((await get()).body.total).toBe(again);
  });

  it.each([
    ['a malformed vendorId', '?vendorId=nope'],
    ['limit 0', '?limit=0'],
    ['limit 251', '?limit=251'],
    ['a negative offset', '?offset=-1'],
    ['an unknown parameter', '?vendor=acme'],
  ])('refuses %s with 422', async (_name, q) => {
    const res = await get(q);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
  });

  it('another shop sees none of it; its vendor id matches nothing here', async () => {
    const res = await get('', other);
    expect(res.body).toEqual({ total: 0, nextOffset: null, products: [] });
    const otherVendor = await createVendor(t, other, 'Acme');
    expect((await get(`?vendorId=${otherVendor._id}`)).body).toEqual({
      total: 0,
      nextOffset: null,
      products: [],
    });
    expect((await get(`?vendorId=${acme._id}`, other)).body).toEqual({
      total: 0,
      nextOffset: null,
      products: [],
    });
  });

  it('accepts Shopify’s own sample products/create: every digit of its 64-bit ids kept, also in the delivery view', async () => {
    // The platform's sample payload (trimmed), as raw text: its ids are beyond 2^53.
    const raw =
      '{"admin_graphql_api_id":"gid://shopify/Product/788032119674292922","body_html":"An example T-Shirt",' +
      '"created_at":null,"handle":"example-t-shirt","id":788032119674292922,"product_type":"Shirts",' +
      '"published_at":"2021-12-31T19:00:00-05:00","template_suffix":null,"title":"Example T-Shirt",' +
      '"updated_at":"2021-12-31T19:00:00-05:00","vendor":"Acme","status":"active","published_scope":"web",' +
      '"tags":"example, mens, t-shirt","variants":[{"id":642667041472713922,"price":"19.99",' +
      '"product_id":788032119674292922,"sku":"example-shirt-s","title":"Small","inventory_quantity":75},' +
      '{"id":757650484644203962,"price":"19.99","product_id":788032119674292922,"sku":"example-shirt-m",' +
      '"title":"Medium","inventory_quantity":50}],"options":[],"images":[],"image":null}';
    const sent = await sendWebhook(t, shop, 'products/create', null, { rawBody: raw });
    expect(sent.status).toBe(200);
    await waitForWebhooks(t, shop, [sent.webhookId]);
    const found = (await get(`?vendorId=${acme._id}&limit=250`)).body.products.find(
      (x: any) => x.productId === '788032119674292922',
    );
    expect(found).toMatchObject({ title: 'Example T-Shirt', totalInventory: 125 });
    expect(found.variants.map((v: any) => v.id)).toEqual(['642667041472713922', '757650484644203962']);
    const view = await t.api.get(`/v1/webhooks/deliveries/${sent.body.deliveryId}`, { token: shop.token });
    expect(view.status).toBe(200);
    expect(view.body.payload.id).toBe('788032119674292922'); // not 788032119674292900
    expect(view.body.payload.variants[1].id).toBe('757650484644203962');
    expect(view.body.payload.variants[0].price).toBe('19.99');
  });

  it('needs a shop token', async () => {
    const mk = await createMerchantKey(t, shop);
    expect((await t.api.get('/v1/products', { token: mk.token })).status).toBe(403);
    expect((await t.api.get('/v1/products')).status).toBe(401);
  });
});
