import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';

/**
 * Issue 18, item 2: a session ends with the credential that made it. A vendor token minted before
 * a password or email change, an un-approval, a deletion or a vendor deactivation is refused (401)
 * on its next request and at /refresh-token — and stays refused when the change is undone.
 */
describe('security: vendor sessions end with their credential (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let merchant: string;
  let n = 0;
  const PASSWORD = 'first-portal-pass-1';
  const NEW_PASSWORD = 'second-portal-pass-2';

  async function signedIn() {
    const v = await t.api.post(
      '/v1/vendors',
      {
        vendorName: `sec session ${n++} ${Date.now().toString(36)}`,
        commissionType: 'flat',
        commissionAmount: 1,
      },
      { token: shop.token },
    );
    const email = `session-${n++}-${Date.now().toString(36)}@example.com`;
    const u = await t.api.post(
      '/v1/users',
      { vendorId: v.body.vendor._id, email, password: PASSWORD },
      { token: shop.token },
    );
    expect(u.status).toBe(200);
    const res = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email,
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const token: string = res.body.data.token;
    // a token renewed before the change is just as dead after it
    const renewed = await t.api.post('/refresh-token', undefined, { token });
    expect(renewed.status).toBe(200);
    expect((await t.api.get('/orders', { token })).status).toBe(200);
    return {
      vendorId: v.body.vendor._id as string,
      userId: u.body.user._id as string,
      email,
      token,
      renewed: renewed.body.data.token as string,
    };
  }

  async function expectRefused(tokens: string[]) {
    for (const token of tokens) {
      for (const res of [
        await t.api.get('/orders', { token }),
        await t.api.get('/v2/orders', { token }),
        await t.api.post('/refresh-token', undefined, { token }),
        await t.api.post('/v2/refresh-token', undefined, { token }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
      }
    }
  }

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'sec-sessions');
    merchant = (await createMerchantKey(t, shop)).token;
  });
  afterAll(() => t.close());

  it('password changed by PUT /v1/users/{id} → earlier tokens 401, refresh 401; the new password signs in', async () => {
    const a = await signedIn();
    const put = await t.api.put(
      `/v1/users/${a.userId}`,
      { email: a.email, password: NEW_PASSWORD },
      { token: shop.token },
    );
    expect(put.status).toBe(200);
    await expectRefused([a.token, a.renewed]);
    const again = await t.api.post('/v2/vendor/authenticate', {
      shopDomain: shop.shopDomain,
      email: a.email,
      password: NEW_PASSWORD,
    });
    expect(again.status).toBe(200);
    expect((await t.api.get('/orders', { token: again.body.data.token })).status).toBe(200);
  });

  it('password changed by PATCH /v2/users/{id} → earlier tokens 401, refresh 401', async () => {
    const a = await signedIn();
    const patch = await t.api.patch(`/v2/users/${a.userId}`, { password: NEW_PASSWORD }, { token: merchant });
    expect(patch.status).toBe(200);
    await expectRefused([a.token, a.renewed]);
  });

  it('email changed by PATCH /v2/users/{id} → earlier tokens 401, refresh 401', async () => {
    const a = await signedIn();
    const patch = await t.api.patch(
      `/v2/users/${a.userId}`,
      { email: `moved-${a.email}` },
      { token: merchant },
    );
    expect(patch.status).toBe(200);
    await expectRefused([a.token, a.renewed]);
  });

  it('email changed by PUT /v1/users/{id} (same password) → earlier tokens 401', async () => {
    const a = await signedIn();
    const put = await t.api.put(
      `/v1/users/${a.userId}`,
      { email: `v1-moved-${a.email}`, password: PASSWORD },
      { token: shop.token },
    );
    expect(put.status).toBe(200);
    await expectRefused([a.token]);
  });

  it('approved: false → 401, and still 401 once approved again', async () => {
    const a = await signedIn();
    expect(
      (await t.api.patch(`/v2/users/${a.userId}`, { approved: false }, { token: merchant })).status,
    ).toBe(200);
    await expectRefused([a.token]);
    expect((await t.api.patch(`/v2/users/${a.userId}`, { approved: true }, { token: merchant })).status).toBe(
      200,
    );
    await expectRefused([a.token, a.renewed]);
  });

  it('deletion → 401, refresh 401', async () => {
    const a = await signedIn();
    expect((await t.api.delete(`/v1/users/${a.userId}`, { token: shop.token })).status).toBe(200);
    await expectRefused([a.token, a.renewed]);
  });

  it('vendor deactivation → 401, and still 401 once the vendor is active again', async () => {
    const a = await signedIn();
    expect(
      (await t.api.patch(`/v2/vendors/${a.vendorId}`, { active: false }, { token: merchant })).status,
    ).toBe(200);
    await expectRefused([a.token]);
    expect(
      (await t.api.patch(`/v2/vendors/${a.vendorId}`, { active: true }, { token: merchant })).status,
    ).toBe(200);
    await expectRefused([a.token, a.renewed]);
  });

  it('changes that do not touch the credential keep the session (approving an approved user)', async () => {
    const a = await signedIn();
    expect((await t.api.patch(`/v2/users/${a.userId}`, { approved: true }, { token: merchant })).status).toBe(
      200,
    );
    expect((await t.api.get('/orders', { token: a.token })).status).toBe(200);
    expect((await t.api.post('/refresh-token', undefined, { token: a.renewed })).status).toBe(200);
  });
});
