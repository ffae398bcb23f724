import { startApp, TestApp } from '../support/app';
import { vendorToken } from '../support/catalog';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { STRIPE_KEY } from '../support/transfers';

/** Vendor payout methods and the shop's provider credentials (issue 20). */
describe('Payout methods and provider credentials (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const texts: string[] = [];

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'methods');
    other = await createShop(t, 'methods-other');
  });
  afterAll(() => t?.close());

  it.each([
    [{ type: 'stripe_connect' }, 'accountId'],
    [{ type: 'stripe_connect', accountId: 'acc_123' }, 'accountId'],
    [{ type: 'stripe_connect', accountId: 'acct_1', receiver: 'a@b.co' }, 'receiver'],
    [{ type: 'paypal', receiver: 'not-an-email', recipientType: 'EMAIL' }, 'receiver'],
    [{ type: 'paypal', receiver: 'abc', recipientType: 'PAYPAL_ID' }, 'receiver'],
    [{ type: 'paypal', receiver: '12ab', recipientType: 'PHONE' }, 'receiver'],
    [{ type: 'paypal', receiver: 'a@b.co' }, 'recipientType'],
    [{ type: 'paypal', receiver: 'a@b.co', recipientType: 'FAX' }, 'recipientType'],
    [{ type: 'manual', accountId: 'acct_1' }, 'accountId'],
    [{ type: 'wire' }, 'type'],
  ])('%j → 422 naming %s', async (body, field) => {
    const v = await createVendor(t, shop, `Invalid ${field} ${Math.random()}`);
    const res = await t.api.put(`/v1/vendors/${v._id}/payout-method`, body, { token: shop.token });
    expect(res.status).toBe(422);
    expect(res.text).toContain(field);
  });

  it('sets, reads (v1, V2, the vendor itself) and audits a method; a vendor may not change it', async () => {
    const v = await createVendor(t, shop, 'Method Vendor');
    const initial = await t.api.get(`/v1/vendors/${v._id}/payout-method`, { token: shop.token });
    expect(initial.body).toMatchObject({ vendorId: v._id, type: 'manual', updatedAt: null });
    const set = await t.api.put(
      `/v1/vendors/${v._id}/payout-method`,
      { type: 'paypal', receiver: ' Vendor@Example.com ', recipientType: 'EMAIL' },
      { token: shop.token },
    );
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      type: 'paypal',
      receiver: 'Vendor@Example.com',
      recipientType: 'EMAIL',
      accountId: null,
    });
    const merchant = await createMerchantKey(t, shop);
    const v2 = await t.api.put(
      `/v2/vendors/${v._id}/payout-method`,
      { type: 'stripe_connect', accountId: 'acct_1Nv0FGQ9RKHgCVdK' },
      { token: merchant.token },
    );
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({
      success: true,
      data: { type: 'stripe_connect', accountId: 'acct_1Nv0FGQ9RKHgCVdK' },
    });
    const vTok = await vendorToken(t, shop, v._id);
    for (const path of ['/v2/payout-method', '/payout-method']) {
      const own = await t.api.get(path, { token: vTok });
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ vendorId: v._id, type: 'stripe_connect' });
    }
    expect(
      (await t.api.put(`/v2/vendors/${v._id}/payout-method`, { type: 'manual' }, { token: vTok })).status,
    ).toBe(403);
    const refused = await t.api.get('/payout-method', { token: merchant.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } }); // the V2 envelope
    expect((await t.api.get('/v2/payout-method', { token: merchant.token })).status).toBe(403);
    const audit = await t.api.get(`/v1/audit-events?resourceType=payout_method&resourceId=${v._id}`, {
      token: shop.token,
    });
    expect(audit.status).toBe(200);
    expect(audit.body.events ?? audit.body.items).toHaveLength(2);
  });

  it('another shop’s vendor is 404 for read and write', async () => {
    const v = await createVendor(t, shop, 'Foreign Method Vendor');
    expect((await t.api.get(`/v1/vendors/${v._id}/payout-method`, { token: other.token })).status).toBe(404);
    expect(
      (await t.api.put(`/v1/vendors/${v._id}/payout-method`, { type: 'manual' }, { token: other.token }))
        .status,
    ).toBe(404);
    expect((await t.api.get('/v1/vendors/nope/payout-method', { token: shop.token })).status).toBe(404);
  });

  it('credentials are write-only: never in any answer, masked hints only, mode checked', async () => {
    const secrets = {
      stripeSecretKey: STRIPE_KEY,
      stripeWebhookSecret: 'whsec_credentialsTestSecret99',
      paypalClientId: 'ClientIdCredentialsTest77',
      paypalClientSecret: 'ClientSecretCredentialsTest55',
    };
    const put = await t.api.put(
      '/v1/shop/payout-providers',
      { ...secrets, paypalWebhookId: 'WH-1' },
      { token: shop.token },
    );
    texts.push(put.text);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      mode: 'sandbox',
      currency: 'USD',
      stripe: {
        secretKeySet: true,
        secretKeyHint: `sk_test_…${STRIPE_KEY.slice(-4)}`,
        webhookSecretSet: true,
      },
      paypal: { clientIdSet: true, clientSecretSet: true, webhookId: 'WH-1' },
    });
    const get = await t.api.get('/v1/shop/payout-providers', { token: shop.token });
    texts.push(get.text);
    const live = await t.api.put('/v1/shop/payout-providers', { mode: 'live' }, { token: shop.token });
    texts.push(live.text);
    expect(live.status).toBe(422);
    const bad = await t.api.put(
      '/v1/shop/payout-providers',
      { stripeSecretKey: 'pk_test_123456789' },
      { token: shop.token },
    );
    texts.push(bad.text);
    expect(bad.status).toBe(422);
    const cleared = await t.api.put(
      '/v1/shop/payout-providers',
      { paypalClientSecret: null },
      { token: shop.token },
    );
    texts.push(cleared.text);
    expect(cleared.body.paypal.clientSecretSet).toBe(false);
    const audit = await t.api.get('/v1/audit-events?action=shop.payout_providers.update', {
      token: shop.token,
    });
    texts.push(audit.text);
    expect(audit.status).toBe(200);
    // the first write and the clearing one (the refused ones changed nothing), each recorded at once
    expect(audit.body.events).toHaveLength(2);
    expect(audit.text).toContain('secretsReplaced');
    const foreign = await t.api.get('/v1/shop/payout-providers', { token: other.token });
    expect(foreign.body.stripe.secretKeySet).toBe(false);
    for (const text of texts) {
      for (const s of Object.values(secrets)) expect(text).not.toContain(s);
      expect(text).not.toMatch(/v1\.[A-Za-z0-9_-]{16}\./); // no ciphertext either
    }
  });
});
