import Stripe from 'stripe';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import {
  additions,
  PAYPAL_WEBHOOK_ID,
  payBatch,
  setMethod,
  STRIPE_KEY,
  STRIPE_WEBHOOK_SECRET,
  transferIn,
} from '../support/transfers';
import { eventually } from '../support/webhooks';
import { PaypalStandin } from '../standins/paypal-standin';
import { StripeStandin } from '../standins/stripe-standin';

/** Provider webhooks (issue 20): verified, stored in the inbox, applied once. */
describe('Payout provider webhooks (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const stripe = new StripeStandin();
  const paypal = new PaypalStandin();

  beforeAll(async () => {
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    process.env.PAYPAL_API_BASE_URL = await paypal.start();
    process.env.TRANSFER_POLL_SECONDS = '1';
    // Queues of its own: its transfer jobs must run in this app, whose provider URLs are this file's
    // stand-ins (another file's app on the same prefix would call its own).
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rails-hooks-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'rails-hooks');
    const creds = await t.api.put(
      '/v1/shop/payout-providers',
      {
        stripeSecretKey: STRIPE_KEY,
        stripeWebhookSecret: STRIPE_WEBHOOK_SECRET,
        paypalClientId: paypal.clientId,
        paypalClientSecret: paypal.clientSecret,
        paypalWebhookId: PAYPAL_WEBHOOK_ID,
      },
      { token: shop.token },
    );
    expect(creds.status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await stripe.stop();
    await paypal.stop();
    for (const k of ['STRIPE_API_BASE_URL', 'PAYPAL_API_BASE_URL', 'TRANSFER_POLL_SECONDS'])
      delete process.env[k];
  });

  function stripeEvent(transferId: string, type = 'transfer.reversed') {
    const tr = stripe.transfers.get(transferId)!;
    return JSON.stringify({
      id: `evt_${transferId}_${type}`,
      object: 'event',
      type,
      data: {
        object: {
          id: tr.id,
          object: 'transfer',
          amount: tr.amount,
          amount_reversed: tr.amount_reversed,
          metadata: tr.metadata,
        },
      },
    });
  }

  const postStripe = (payload: string, secret = STRIPE_WEBHOOK_SECRET, query = '') =>
    t.api.post(`/webhooks/stripe${query}`, undefined, {
      raw: payload,
      headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    });

  it('a signed transfer.reversed reverses the paid transfer and credits it back, once', async () => {
    const v = await createVendor(t, shop, 'Reversed Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_reversed' });
    const created = await payBatch(t, shop, v._id, 88.8);
    const paid = await transferIn(t, shop, created._id, 'paid');
    stripe.reverse(paid.providerId!);
    const payload = stripeEvent(paid.providerId!);
    expect((await postStripe(payload, 'whsec_wrongsecret0000')).status).toBe(401);
    expect((await t.api.post('/webhooks/stripe', undefined, { raw: payload })).status).toBe(401);
    const ok = await postStripe(payload);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ received: true, duplicate: false, ignored: false });
    expect(ok.body.deliveryId).toMatch(/^[0-9a-f]{24}$/);
    const reversed = await transferIn(t, shop, created._id, 'reversed');
    expect(reversed.history.map((h) => h.to)).toEqual(['pending', 'paid', 'reversed']);
    const credit = await eventually(async () => {
      const a = await additions(t, shop, v._id);
      if (a.length !== 1) throw new Error(`${a.length}`);
      return a[0];
    });
    expect(credit).toMatchObject({ _id: created._id, amount: 88.8, status: 'UNPAID' });
    // The same event again (Stripe retries): acknowledged as a duplicate, nothing applied twice.
    const again = await postStripe(payload);
    expect(again.body.duplicate).toBe(true);
    const delivery = await t.api.get(`/v1/webhooks/deliveries/${ok.body.deliveryId}`, { token: shop.token });
    expect(delivery.body.topic ?? delivery.body.delivery?.topic).toBe('stripe/transfer.reversed');
    expect(await additions(t, shop, v._id)).toHaveLength(1);
  });

  it('other Stripe event types are acknowledged and ignored; an unknown shop is 401', async () => {
    const v = await createVendor(t, shop, 'Ignored Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_ignored' });
    const created = await payBatch(t, shop, v._id, 1);
    const paid = await transferIn(t, shop, created._id, 'paid');
    const res = await postStripe(stripeEvent(paid.providerId!, 'transfer.created'));
    expect(res.body).toMatchObject({ ignored: true, deliveryId: null });
    const unknown = await postStripe(
      stripeEvent(paid.providerId!),
      STRIPE_WEBHOOK_SECRET,
      '?shop=nobody.myshopify.com',
    );
    expect(unknown.status).toBe(401);
  });

  it('PayPal: a verified PAYMENT.PAYOUTS-ITEM.RETURNED after SUCCESS reverses and credits back; a bad signature is 401', async () => {
    const v = await createVendor(t, shop, 'PayPal Hook Vendor');
    await setMethod(t, shop, v._id, { type: 'paypal', receiver: 'hook@example.com', recipientType: 'EMAIL' });
    const created = await payBatch(t, shop, v._id, 20);
    const paid = await transferIn(t, shop, created._id, 'paid');
    const event = JSON.stringify(
      paypal.itemEvent(paid.providerId!, 'RETURNED', 'PAYMENT.PAYOUTS-ITEM.RETURNED'),
    );
    const headers = (sig: string) => ({
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-1',
      'paypal-transmission-id': 'tx-1',
      'paypal-transmission-sig': sig,
      'paypal-transmission-time': new Date().toISOString(),
    });
    const path = `/webhooks/paypal?shop=${shop.shopDomain}`;
    expect((await t.api.post(path, undefined, { raw: event, headers: headers('forged') })).status).toBe(401);
    expect(
      (
        await t.api.post('/webhooks/paypal', undefined, {
          raw: event,
          headers: headers(paypal.validSignature),
        })
      ).status,
    ).toBe(401);
    const ok = await t.api.post(path, undefined, { raw: event, headers: headers(paypal.validSignature) });
    expect(ok.status).toBe(200);
    expect(ok.body.deliveryId).toMatch(/^[0-9a-f]{24}$/);
    await transferIn(t, shop, created._id, 'reversed');
    await eventually(async () => {
      const a = await additions(t, shop, v._id);
      if (a.length !== 1) throw new Error(`${a.length}`);
      expect(a[0].amount).toBe(20);
    });
  });

  it('PayPal unreachable while verifying → 503 (PayPal delivers again), nothing stored', async () => {
    paypal.outage = true;
    try {
      const res = await t.api.post(`/webhooks/paypal?shop=${shop.shopDomain}`, undefined, {
        raw: JSON.stringify({ id: 'WH-x', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} }),
        headers: {
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-1',
          'paypal-transmission-id': 'tx-2',
          'paypal-transmission-sig': paypal.validSignature,
          'paypal-transmission-time': new Date().toISOString(),
        },
      });
      expect(res.status).toBe(503);
    } finally {
      paypal.outage = false;
    }
  });
});
