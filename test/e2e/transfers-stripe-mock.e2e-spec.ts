import { StripeConnectRail } from '../../src/transfers/rails/stripe-connect.rail';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { payBatch, setMethod, STRIPE_KEY, transferIn } from '../support/transfers';

/**
 * The Stripe rail against stripe-mock (scripts/services.sh starts it at STRIPE_MOCK_URL): the
 * official SDK's request, sent through the guarded outbound helper, is validated against Stripe's
 * own OpenAPI — a malformed transfers.create would be answered 400 and the transfer would fail.
 */
describe('Stripe rail against stripe-mock (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const url = process.env.STRIPE_MOCK_URL ?? 'http://127.0.0.1:12111';

  beforeAll(async () => {
    process.env.STRIPE_API_BASE_URL = url;
    process.env.TRANSFER_MAX_ATTEMPTS = '1';
    // Queues of its own: its transfer jobs must run in this app, whose provider URLs are this file's
    // stand-ins (another file's app on the same prefix would call its own).
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-stripe-mock-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'stripe-mock');
    await t.api.put('/v1/shop/payout-providers', { stripeSecretKey: STRIPE_KEY }, { token: shop.token });
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.STRIPE_API_BASE_URL;
    delete process.env.TRANSFER_MAX_ATTEMPTS;
  });

  it('a paid batch becomes a Stripe transfer: stripe-mock accepts the request, its id is recorded, paid', async () => {
    const v = await createVendor(t, shop, 'Mock Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_1Nv0FGQ9RKHgCVdK' });
    const created = await payBatch(t, shop, v._id, 250.05);
    const paid = await transferIn(t, shop, created._id, 'paid');
    expect(paid.providerId).toMatch(/^tr_/);
    expect(paid.reference).toBe(paid.providerId);
    expect(paid.lastError).toBeNull();
    expect(paid.attempts).toBe(1);
  });

  it("the follow-up's lookups (transfers.retrieve, transfers.list by transfer_group) are requests Stripe accepts", async () => {
    const rail = t.app.get(StripeConnectRail);
    const creds = {
      mode: 'sandbox' as const,
      stripeSecretKey: STRIPE_KEY,
      paypalClientId: null,
      paypalClientSecret: null,
    };
    const transfer = {
      id: '6745a1b2c3d4e5f6a7b8c9d0',
      shopId: shop.shopId,
      vendorId: '6740b9f1c2a4e15b3c9d0a21',
      batchId: '6742c1d2e3f4a5b6c7d8e9f0',
      amount: 250.05,
      currency: 'USD',
      destination: 'acct_1Nv0FGQ9RKHgCVdK',
      recipientType: null,
    };
    // by its recorded id: stripe-mock answers its fixture transfer (made, not reversed) → paid
    const byId = await rail.follow({ ...transfer, providerId: 'tr_1Nv0FGQ9RKHgCVdK' }, creds);
    expect(byId).toMatchObject({ kind: 'paid', reference: expect.stringMatching(/^tr_/) });
    // without one: the batch's transfer_group listed; the fixture's metadata names no transfer of ours
    expect(await rail.follow({ ...transfer, providerId: null }, creds)).toEqual({
      kind: 'absent',
      providerStatus: null,
    });
  });
});
