/* eslint-disable @typescript-eslint/no-explicit-any */
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { deliver, shopifyProduct } from '../support/webhooks';

describe('vendor products: GET /products, /products/{id}, /products/counts, /v2/products (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let acme: { _id: string };
  let acmeToken: string;
  let globexToken: string;
  let otherToken: string;
  let merchantToken: string;
  const base = Date.UTC(2026, 2, 1);
  /** Acme's products in creation order: platform id and title. */
  const acmeProducts: Array<{ id: string; title: string; status: string }> = [];
  let globexProductId: string;
  let otherShopProductId: string;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'vprod');
    other = await createShop(t, 'vprod-other');
    acme = await createVendor(t, shop, 'Acme');
    const globex = await createVendor(t, shop, 'Globex');
    const otherAcme = await createVendor(t, other, 'Acme');
    acmeToken = await vendorToken(t, shop, acme._id);
    globexToken = await vendorToken(t, shop, globex._id);
    otherToken = await vendorToken(t, other, otherAcme._id);
    merchantToken = (await createMerchantKey(t, shop)).token;
    const statuses = ['active', 'active', 'draft', 'archived', 'active', 'draft'] as const;
    for (const [i, status] of statuses.entries()) {
      const title = i === 4 ? 'Blue Wool Scarf (large)' : `Acme shirt ${i}`;
      // the vendor field in other letter cases and with spaces still matches the vendor's name
      const p = shopifyProduct({
        title,
        vendor: i % 2 ? 'ACME' : ' acme',
        status,
        createdAt: new Date(base + i * 60_000),
      });
      await deliver(t, shop, 'products/create', p);
      acmeProducts.push({ id: String(p.id), title, status });
    }
    const g = shopifyProduct({
      title: 'Globex scarf',
      vendor: 'Globex',
      createdAt: new Date(base + 10 * 60_000),
    });
    await deliver(t, shop, 'products/create', g);
    globexProductId = String(g.id);
    const o = shopifyProduct({ title: 'Other shop scarf', vendor: 'Acme', createdAt: new Date(base) });
    await deliver(t, other, 'products/create', o);
    otherShopProductId = String(o.id);
  });
  afterAll(() => t.close());

  const get = (path: string, token: string) => t.api.get(path, { token });
  const titles = (res: any) => res.body.data.items.map((p: any) => p.title);
  const newestFirst = () => [...acmeProducts].reverse().map((p) => p.title);

  it.each(['/products', '/v2/products'])(
    '%s with a vendor token: its own products, newest first',
    async (path) => {
      const res = await get(path, acmeToken);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(Object.keys(res.body.data).sort()).toEqual(['items', 'pageInfo', 'totalCount']);
      expect(res.body.data.totalCount).toBe(6);
      expect(titles(res)).toEqual(newestFirst());
      expect(res.body.data.items.every((p: any) => p.vendorId === acme._id)).toBe(true);
    },
  );

  it('pages with cursors both ways without gaps or repeats', async () => {
    const first = await get('/products?first=4', acmeToken);
    expect(titles(first)).toEqual(newestFirst().slice(0, 4));
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    const cursor = encodeURIComponent(first.body.data.pageInfo.endCursor);
    const second = await get(`/products?first=4&after=${cursor}`, acmeToken);
    expect(titles(second)).toEqual(newestFirst().slice(4));
    expect(second.body.data.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await get(
      `/products?last=4&before=${encodeURIComponent(second.body.data.pageInfo.startCursor)}`,
      acmeToken,
    );
    expect(titles(back)).toEqual(newestFirst().slice(0, 4));
  });

  it('filters by status and by a case-insensitive literal title search, counting the filtered list', async () => {
    const drafts = await get('/products?status=draft', acmeToken);
    expect(titles(drafts)).toEqual(['Acme shirt 5', 'Acme shirt 2']);
    expect(drafts.body.data.totalCount).toBe(2);
    const search = await get(`/products?search=${encodeURIComponent('wool SCARF (')}`, acmeToken);
    expect(titles(search)).toEqual(['Blue Wool Scarf (large)']);
    expect(search.body.data.totalCount).toBe(1);
    // the search is literal: regex metacharacters match themselves only
    expect((await get('/products?search=.*', acmeToken)).body.data.totalCount).toBe(0);
    const both = await get('/products?status=active&search=shirt', acmeToken);
    expect(titles(both)).toEqual(['Acme shirt 1', 'Acme shirt 0']);
  });

  it('refuses bad filters with 422', async () => {
    for (const q of ['status=deleted', 'search=', `search=${'x'.repeat(101)}`, 'first=0', 'first=1&last=1']) {
      const res = await get(`/products?${q}`, acmeToken);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('GET /products/counts (and /v2) → {active, draft, archived} of the vendor', async () => {
    for (const path of ['/products/counts', '/v2/products/counts']) {
      const res = await get(path, acmeToken);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ active: 3, draft: 2, archived: 1 });
    }
    expect((await get('/products/counts', globexToken)).body.data).toEqual({
      active: 1,
      draft: 0,
      archived: 0,
    });
  });

  it('GET /products/{id} by our _id or the platform id; another vendor’s or shop’s → 404', async () => {
    const byPlatform = await get(`/products/${acmeProducts[4].id}`, acmeToken);
    expect(byPlatform.status).toBe(200);
    expect(byPlatform.body.data).toMatchObject({
      productId: acmeProducts[4].id,
      title: 'Blue Wool Scarf (large)',
      vendorId: acme._id,
      status: 'active',
    });
    const byId = await get(`/v2/products/${byPlatform.body.data._id}`, acmeToken);
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(byPlatform.body.data);
    for (const id of [globexProductId, otherShopProductId, '000000000000000000000000', 'not-an-id', '12x']) {
      for (const path of [`/products/${id}`, `/v2/products/${id}`]) {
        const res = await get(path, acmeToken);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    // the other shop's vendor sees its own product, not this shop's
    expect((await get(`/products/${otherShopProductId}`, otherToken)).status).toBe(200);
    expect((await get(`/products/${acmeProducts[0].id}`, otherToken)).status).toBe(404);
  });

  it('a shop token: GET /v2/products over the whole shop, narrowed by vendorId; GET /v2/products/{id}', async () => {
    const all = await get('/v2/products', shop.token);
    expect(all.status).toBe(200);
    expect(all.body.data.totalCount).toBe(7);
    expect(titles(all)[0]).toBe('Globex scarf');
    const acmeOnly = await get(`/v2/products?vendorId=${acme._id}&search=scarf`, shop.token);
    expect(titles(acmeOnly)).toEqual(['Blue Wool Scarf (large)']);
    const unknown = await get('/v2/products?vendorId=000000000000000000000000', shop.token);
    expect(unknown.body.data).toMatchObject({ items: [], totalCount: 0 });
    expect((await get(`/v2/products/${globexProductId}`, shop.token)).body.data.title).toBe('Globex scarf');
    expect((await get(`/v2/products/${otherShopProductId}`, shop.token)).status).toBe(404);
    // the vendor surface without prefix is the vendor's
    expect((await get('/products', shop.token)).status).toBe(403);
    expect((await get('/products/counts', shop.token)).status).toBe(403);
  });

  it('a merchant token gets 403 on every product route', async () => {
    for (const path of ['/products', '/v2/products', '/products/counts', `/v2/products/${globexProductId}`]) {
      const res = await get(path, merchantToken);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });
});
