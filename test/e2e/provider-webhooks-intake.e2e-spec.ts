import Stripe from 'stripe';
import { Types } from 'mongoose';
import { startApp, TestApp } from '../support/app';
import { measured } from '../support/db-cost';
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

/** This file's per-address limit (its own app and Redis prefix); the default is far higher. */
const PER_ADDRESS = 50;

/**
 * What an unauthenticated caller can make /webhooks/paypal and /webhooks/stripe cost (issue 28,
 * finding 6): nothing reaches PayPal's verify-webhook-signature and no store read happens for a
 * request that is too big, of a type never verified, outside the transmission-time window, or names
 * a shop already found unknown; each client address is limited; and a signed event of an earlier
 * payout batch of the transfer is not applied. Each request comes from its own client address
 * (X-Forwarded-For under TRUST_PROXY=loopback) unless a test is about the per-address limit.
 */
describe('Provider webhook intake limits (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const stripe = new StripeStandin();
  const paypal = new PaypalStandin();
  const saved: Record<string, string | undefined> = {};
  const ENV = [
    'STRIPE_API_BASE_URL',
    'PAYPAL_API_BASE_URL',
    'TRANSFER_POLL_SECONDS',
    'QUEUE_PREFIX',
    'TRUST_PROXY',
    'PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE',
  ];
  let nextAddress = 1;
  /** A client address no earlier request of this file used. */
  const freshAddress = () => `10.28.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  const verifyCalls = () => paypal.calls.filter((c) => c.op === 'verify').length;

  beforeAll(async () => {
    for (const k of ENV) saved[k] = process.env[k];
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    process.env.PAYPAL_API_BASE_URL = await paypal.start();
    process.env.TRANSFER_POLL_SECONDS = '1';
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-intake-${process.pid}`;
    process.env.TRUST_PROXY = 'loopback';
    process.env.PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE = String(PER_ADDRESS);
    t = await startApp();
    shop = await createShop(t, 'intake');
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
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const headers = (opts: { sig?: string; time?: Date; address?: string } = {}): Record<string, string> => ({
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api-m.sandbox.paypal.com/v1/notifications/certs/CERT-1',
    'paypal-transmission-id': `tx-${new Types.ObjectId().toHexString()}`,
    'paypal-transmission-sig': opts.sig ?? paypal.validSignature,
    'paypal-transmission-time': (opts.time ?? new Date()).toISOString(),
    'x-forwarded-for': opts.address ?? freshAddress(),
  });
  const itemEvent = (eventType = 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: `WH-${new Types.ObjectId().toHexString()}`,
      event_type: eventType,
      resource: { payout_batch_id: 'NOSUCHBATCH', transaction_status: 'SUCCESS' },
      ...extra,
    });
  const postPaypal = (raw: string, h: Record<string, string>, domain = shop.shopDomain) =>
    measured(t, 'POST', `/webhooks/paypal?shop=${domain}`, undefined, { raw, headers: h });

  it('a signed item event is verified once and stored: the shop, its PayPal settings (one read) and the inbox', async () => {
    const before = verifyCalls();
    const m = await postPaypal(itemEvent(), headers());
    expect(m.res.status).toBe(200);
    expect(m.res.body.deliveryId).toMatch(/^[0-9a-f]{24}$/);
    expect(verifyCalls() - before).toBe(1);
    console.log(`[intake] a signed PayPal item event: ${m.commands} store commands (${m.describe()})`);
    expect(m.commands).toBeLessThanOrEqual(3);
  });

  it('an event type other than PAYMENT.PAYOUTS-ITEM.* is acknowledged without verifying it or reading the store', async () => {
    const before = verifyCalls();
    const m = await postPaypal(itemEvent('PAYMENT.SALE.COMPLETED'), headers());
    expect(m.res.status).toBe(200);
    expect(m.res.body).toMatchObject({ received: true, ignored: true, deliveryId: null });
    expect(verifyCalls() - before).toBe(0);
    expect(m.commands).toBe(0);
  });

  it('a PayPal body over the cap (64 KiB by default) → 413 before any read or verification', async () => {
    const before = verifyCalls();
    const big = itemEvent('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { padding: 'x'.repeat(200 * 1024) });
    const m = await postPaypal(big, headers());
    expect(m.res.status).toBe(413);
    expect(m.res.body).toEqual({ error: expect.any(String) });
    expect(verifyCalls() - before).toBe(0);
    expect(m.commands).toBe(0);
  });

  it('a transmission time more than 5 minutes from now (either way) → 401 before any read or verification', async () => {
    const before = verifyCalls();
    for (const skewMs of [-6 * 60_000, 6 * 60_000]) {
      const m = await postPaypal(itemEvent(), headers({ time: new Date(Date.now() + skewMs) }));
      expect(m.res.status).toBe(401);
      expect(m.commands).toBe(0);
    }
    const garbled = await postPaypal(itemEvent(), { ...headers(), 'paypal-transmission-time': 'yesterday' });
    expect(garbled.res.status).toBe(401);
    expect(verifyCalls() - before).toBe(0);
    // Inside the window, the same event is verified and accepted as before.
    const ok = await postPaypal(itemEvent(), headers({ time: new Date(Date.now() - 60_000) }));
    expect(ok.res.status).toBe(200);
    expect(verifyCalls() - before).toBe(1);
  });

  it('an unknown shop is looked up once, then refused from memory (PayPal and Stripe)', async () => {
    const ghost = `ghost-${new Types.ObjectId().toHexString()}.myshopify.com`;
    let paypalCommands = 0;
    for (let i = 0; i < 20; i++) {
      const m = await postPaypal(itemEvent(), headers(), ghost);
      expect(m.res.status).toBe(401);
      paypalCommands += m.commands;
    }
    const payload = JSON.stringify({
      id: 'evt_ghost',
      type: 'transfer.reversed',
      data: { object: { id: 'tr_ghost', metadata: { shopId: new Types.ObjectId().toHexString() } } },
    });
    const stripeHeaders = () => ({
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_guess' }),
      'x-forwarded-for': freshAddress(),
    });
    let stripeByDomain = 0;
    let stripeByHint = 0;
    for (let i = 0; i < 20; i++) {
      const byDomain = await measured(t, 'POST', `/webhooks/stripe?shop=${ghost}`, undefined, {
        raw: payload,
        headers: stripeHeaders(),
      });
      expect(byDomain.res.status).toBe(401);
      stripeByDomain += byDomain.commands;
      const byHint = await measured(t, 'POST', '/webhooks/stripe', undefined, {
        raw: payload,
        headers: stripeHeaders(),
      });
      expect(byHint.res.status).toBe(401);
      stripeByHint += byHint.commands;
    }
    console.log(
      `[intake] 20 requests each naming one unknown shop: store commands PayPal ${paypalCommands}, ` +
        `Stripe ?shop= ${stripeByDomain}, Stripe metadata hint ${stripeByHint}`,
    );
    expect(paypalCommands).toBeLessThanOrEqual(1);
    expect(stripeByDomain).toBe(0); // the same domain, already found unknown through PayPal
    expect(stripeByHint).toBeLessThanOrEqual(1);
  });

  it('made-up shop names from one address: at most 30 lookups a minute, then 429 before any read', async () => {
    const address = freshAddress();
    let commands = 0;
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const name = `made-up-${i}-${new Types.ObjectId().toHexString()}.myshopify.com`;
      const m = await postPaypal(itemEvent(), headers({ address }), name);
      commands += m.commands;
      statuses.push(m.res.status);
    }
    const refused = statuses.filter((s) => s === 429).length;
    console.log(
      `[intake] 40 made-up shop names from one address: ${statuses.length - refused} × 401, ${refused} × 429, store commands ${commands}`,
    );
    expect(commands).toBeLessThanOrEqual(30);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
  });

  it(`more than ${PER_ADDRESS} provider webhooks a minute from one address → 429 with Retry-After; other addresses unaffected`, async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const m = await postPaypal(itemEvent('PAYMENT.SALE.COMPLETED'), headers({ address }));
      statuses.push(m.res.status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await postPaypal(itemEvent(), headers({ address }));
    expect(refused.res.status).toBe(429);
    const retryAfter = Number(refused.res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.commands).toBe(0);
    const stripeRefused = await t.api.post('/webhooks/stripe', undefined, {
      raw: '{}',
      headers: { 'stripe-signature': 't=1,v1=00', 'x-forwarded-for': address },
    });
    expect(stripeRefused.status).toBe(429);
    const other = await postPaypal(itemEvent('PAYMENT.SALE.COMPLETED'), headers());
    expect(other.res.status).toBe(200);
  });

  it('a flood of junk costs PayPal no verification and the store a bounded number of reads (figures)', async () => {
    const before = verifyCalls();
    const N = 50;
    const kinds = {
      unsigned: { requests: 0, commands: 0, statuses: new Set<number>() },
      wrongType: { requests: 0, commands: 0, statuses: new Set<number>() },
      oversize: { requests: 0, commands: 0, statuses: new Set<number>() },
      staleTime: { requests: 0, commands: 0, statuses: new Set<number>() },
      unknownShop: { requests: 0, commands: 0, statuses: new Set<number>() },
    };
    const ghosts = [0, 1, 2, 3, 4].map(
      (i) => `flood-${i}-${new Types.ObjectId().toHexString()}.myshopify.com`,
    );
    const big = itemEvent('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { padding: 'y'.repeat(100 * 1024) });
    const started = Date.now();
    for (let i = 0; i < N; i++) {
      const runs: Array<[keyof typeof kinds, Promise<Awaited<ReturnType<typeof postPaypal>>>]> = [
        ['unsigned', postPaypal(itemEvent(), { 'x-forwarded-for': freshAddress() })],
        ['wrongType', postPaypal(itemEvent('PAYMENT.CAPTURE.COMPLETED'), headers())],
        ['oversize', postPaypal(big, headers())],
        ['staleTime', postPaypal(itemEvent(), headers({ time: new Date(Date.now() - 3600_000) }))],
        ['unknownShop', postPaypal(itemEvent(), headers(), ghosts[i % ghosts.length])],
      ];
      for (const [kind, run] of runs) {
        const m = await run;
        kinds[kind].requests++;
        kinds[kind].commands += m.commands;
        kinds[kind].statuses.add(m.res.status);
      }
    }
    const ms = Date.now() - started;
    const verified = verifyCalls() - before;
    const total = Object.values(kinds).reduce((n, k) => n + k.commands, 0);
    console.log(
      `[intake] flood of ${N * 5} junk PayPal webhooks in ${ms} ms: verify-webhook-signature calls ${verified}, ` +
        `store commands ${total} (` +
        Object.entries(kinds)
          .map(([k, v]) => `${k} ${v.requests}×${[...v.statuses].join('/')} → ${v.commands}`)
          .join(', ') +
        ')',
    );
    expect(verified).toBe(0);
    // Only the first request naming each unknown shop reads the store (one shop lookup).
    expect(total).toBeLessThanOrEqual(ghosts.length);
    expect([...kinds.unsigned.statuses]).toEqual([401]);
    expect([...kinds.wrongType.statuses]).toEqual([200]);
    expect([...kinds.oversize.statuses]).toEqual([413]);
    expect([...kinds.staleTime.statuses]).toEqual([401]);
    expect([...kinds.unknownShop.statuses]).toEqual([401]);
  });

  it('a signed event of an earlier payout batch of the transfer is not applied (matched by batch id, not sender_item_id)', async () => {
    const v = await createVendor(t, shop, 'Stale Batch Vendor');
    await setMethod(t, shop, v._id, {
      type: 'paypal',
      receiver: 'stale@example.com',
      recipientType: 'EMAIL',
    });
    paypal.statusOf.set('stale@example.com', 'PENDING');
    const created = await payBatch(t, shop, v._id, 31.17);
    const sent = await transferIn(t, shop, created._id, 'sent');
    expect(sent.providerId).toBeTruthy();
    // The FAILED item of another (earlier) payout batch sent for the same transfer (sender_item_id).
    const stale = JSON.stringify({
      id: `WH-${new Types.ObjectId().toHexString()}`,
      event_type: 'PAYMENT.PAYOUTS-ITEM.FAILED',
      resource_type: 'payouts_item',
      resource: {
        payout_item_id: 'ITEM-EARLIER',
        transaction_status: 'FAILED',
        payout_batch_id: `EARLIER${sent.providerId}`,
        payout_item: { receiver: 'stale@example.com', sender_item_id: created._id },
        errors: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' },
      },
    });
    const res = await t.api.post(`/webhooks/paypal?shop=${shop.shopDomain}`, undefined, {
      raw: stale,
      headers: headers(),
    });
    expect(res.status).toBe(200);
    expect(res.body.deliveryId).toMatch(/^[0-9a-f]{24}$/);
    const delivery = await eventually(async () => {
      const d = await t.api.get(`/v1/webhooks/deliveries/${res.body.deliveryId}`, { token: shop.token });
      const body = d.body.delivery ?? d.body;
      if (!body.processedAt) throw new Error(`delivery not processed yet: ${d.text}`);
      return body as { result: string };
    });
    const after = await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token });
    expect(after.body.state).toBe('sent');
    expect(delivery.result).toMatch(/^ignored/);
    expect(await additions(t, shop, v._id)).toHaveLength(0);
    // The current batch's own outcome still applies.
    paypal.statusOf.set('stale@example.com', 'SUCCESS');
    await transferIn(t, shop, created._id, 'paid');
    expect(await additions(t, shop, v._id)).toHaveLength(0);
  });
});
