import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop } from '../support/factory';

describe('shop profile fields (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('answers 401 {error} until the shop configures its fields, then the fields', async () => {
    const shop = await createShop(t, 'prof');
    const before = await t.api.get('/v1/shop/profile', { token: shop.token });
    expect(before.status).toBe(401);
    expect(before.body).toEqual({ error: 'This shop has no vendor profile configured' });

    const fields = ['companyName', 'taxId', 'phone', 'website', 'description'];
    const put = await t.api.put(
      '/v1/shop/profile',
      { fields: fields.map((f) => ` ${f} `) },
      { token: shop.token },
    );
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ message: 'Profile fields updated', fields });
    expect((await t.api.get('/v1/shop/profile', { token: shop.token })).body).toEqual({ fields });

    const replaced = await t.api.put('/v1/shop/profile', { fields: ['taxId'] }, { token: shop.token });
    expect(replaced.body.fields).toEqual(['taxId']);
    expect((await t.api.get('/v1/shop/profile', { token: shop.token })).body).toEqual({ fields: ['taxId'] });
  });

  it('is per shop: configuring one shop leaves another unconfigured', async () => {
    const a = await createShop(t, 'prof-a');
    const b = await createShop(t, 'prof-b');
    await t.api.put('/v1/shop/profile', { fields: ['taxId'] }, { token: a.token });
    expect((await t.api.get('/v1/shop/profile', { token: b.token })).status).toBe(401);
  });

  it.each([
    ['a repeated name', { fields: ['taxId', 'taxId'] }],
    ['a repeated name after trimming', { fields: ['taxId', ' taxId'] }],
    ['an empty name', { fields: ['taxId', '  '] }],
    ['a non-string name', { fields: ['taxId', 3] }],
    ['a non-array', { fields: 'taxId' }],
    ['a missing list', {}],
    ['an unknown key', { fields: ['a'], extra: 1 }],
  ])('refuses %s with 422 and keeps the fields', async (_name, body) => {
    const shop = await createShop(t, 'prof-bad');
    await t.api.put('/v1/shop/profile', { fields: ['keep'] }, { token: shop.token });
    const res = await t.api.put('/v1/shop/profile', body, { token: shop.token });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await t.api.get('/v1/shop/profile', { token: shop.token })).body).toEqual({ fields: ['keep'] });
  });

  it('refuses a merchant token with 403', async () => {
    const shop = await createShop(t, 'prof-mk');
    const mk = await createMerchantKey(t, shop);
    expect((await t.api.get('/v1/shop/profile', { token: mk.token })).status).toBe(403);
    expect((await t.api.put('/v1/shop/profile', { fields: ['x'] }, { token: mk.token })).status).toBe(403);
  });
});
