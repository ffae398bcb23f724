import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dayOf } from '../../src/common/dates/day-range';
import { OpsServer } from '../../src/ops/ops-server';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { additions, cents, payBatch, setMethod, STRIPE_KEY, transferIn } from '../support/transfers';
import { eventually } from '../support/webhooks';
import { PaypalStandin } from '../standins/paypal-standin';
import { StripeStandin } from '../standins/stripe-standin';

/**
 * Payout rails end to end (issue 20): each rail through HTTP and the queue, failures credited back
 * exactly once and paid by the next batch, an outage retried, the bank file, tenancy. Stripe here
 * is the stateful stand-in (idempotency, refusals, outages); stripe-mock has its own file.
 */
describe('Transfers (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const stripe = new StripeStandin();
  const paypal = new PaypalStandin();

  beforeAll(async () => {
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    process.env.PAYPAL_API_BASE_URL = await paypal.start();
    process.env.TRANSFER_POLL_SECONDS = '1';
    process.env.TRANSFER_MAX_ATTEMPTS = '2';
    // Queues of its own: its transfer jobs must run in this app, whose provider URLs are this file's
    // stand-ins (another file's app on the same prefix would call its own).
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rails-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'rails');
    other = await createShop(t, 'rails-other');
    const creds = await t.api.put(
      '/v1/shop/payout-providers',
      {
        stripeSecretKey: STRIPE_KEY,
        paypalClientId: paypal.clientId,
        paypalClientSecret: paypal.clientSecret,
      },
      { token: shop.token },
    );
    expect(creds.status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await stripe.stop();
    await paypal.stop();
    for (const k of [
      'STRIPE_API_BASE_URL',
      'PAYPAL_API_BASE_URL',
      'TRANSFER_POLL_SECONDS',
      'TRANSFER_MAX_ATTEMPTS',
    ])
      delete process.env[k];
  });

  it('stripe_connect: one transfer per batch, paid, the provider called once with the mapped request', async () => {
    const v = await createVendor(t, shop, 'Stripe Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_standinA' });
    const created = await payBatch(t, shop, v._id, 123.45);
    expect(created).toMatchObject({
      state: 'pending',
      method: 'stripe_connect',
      amount: 123.45,
      currency: 'USD',
    });
    const paid = await transferIn(t, shop, created._id, 'paid');
    expect(paid.providerId).toMatch(/^tr_/);
    // Stripe settles at once: its answer is written in one move (no sent a crash could strand)
    expect(paid.history.map((h) => h.to)).toEqual(['pending', 'paid']);
    const sent = stripe.transfers.get(paid.providerId!)!;
    expect(sent).toMatchObject({
      amount: 12345,
      currency: 'usd',
      destination: 'acct_standinA',
      transfer_group: created.batchId,
      idempotencyKey: created._id,
      metadata: { shopId: shop.shopId, vendorId: v._id, batchId: created.batchId },
    });
    // The engine calling again for the same batch answers the same transfer and pays nothing more.
    const again = await payBatch(t, shop, v._id, 123.45, created.batchId);
    expect(again._id).toBe(created._id);
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
  });

  it('refuses a transfer of a zero or negative total (a carried-forward batch creates none)', async () => {
    const v = await createVendor(t, shop, 'Carried Vendor');
    await expect(payBatch(t, shop, v._id, 0)).rejects.toThrow(/positive/);
    await expect(payBatch(t, shop, v._id, -5)).rejects.toThrow(/positive/);
    const list = await t.api.get(`/v1/payouts/transfers?vendorId=${v._id}`, { token: shop.token });
    expect(list.body.total).toBe(0);
  });

  it('manual: awaiting_reference, the bank file, then paid by confirm', async () => {
    const v = await createVendor(t, shop, 'Manual Vendor');
    const created = await payBatch(t, shop, v._id, 99.9);
    await transferIn(t, shop, created._id, 'awaiting_reference');
    const file = await t.api.get(`/v1/payouts/batches/${created.batchId}/bank-file`, { token: shop.token });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(file.text).toBe(`vendor,amount,currency,reference\nmanual vendor,99.90,USD,${created.batchId}\n`);
    const pp = await t.api.get(`/v1/payouts/batches/${created.batchId}/bank-file?format=paypal`, {
      token: shop.token,
    });
    expect(pp.status).toBe(409);
    const bad = await t.api.get(`/v1/payouts/batches/${created.batchId}/bank-file?format=xml`, {
      token: shop.token,
    });
    expect(bad.status).toBe(422);
    const confirm = (body: unknown) =>
      t.api.post(`/v1/payouts/transfers/${created._id}/confirm`, body, { token: shop.token });
    expect((await confirm({})).status).toBe(422);
    const paid = await confirm({ reference: 'BANK-REF-42' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ state: 'paid', reference: 'BANK-REF-42' });
    expect((await confirm({ reference: 'BANK-REF-42' })).status).toBe(200);
    expect((await confirm({ reference: 'OTHER' })).status).toBe(409);
    expect(
      (await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, {}, { token: shop.token })).status,
    ).toBe(409);
  });

  it('paypal: sent, followed to SUCCESS → paid; the PayPal bank-file layout', async () => {
    const v = await createVendor(t, shop, 'PayPal Vendor');
    await setMethod(t, shop, v._id, { type: 'paypal', receiver: 'ok@example.com', recipientType: 'EMAIL' });
    const created = await payBatch(t, shop, v._id, 50);
    const paid = await transferIn(t, shop, created._id, 'paid');
    expect(paid.history.map((h) => h.to)).toEqual(['pending', 'sent', 'paid']);
    const payout = paypal.payouts.get(paid.providerId!)!;
    expect(payout).toMatchObject({
      senderBatchId: created._id,
      receiver: 'ok@example.com',
      amount: { value: '50.00', currency: 'USD' },
    });
    expect(paypal.createdPerSenderBatch().get(created._id)).toBe(1);
    const file = await t.api.get(`/v1/payouts/batches/${created.batchId}/bank-file?format=paypal`, {
      token: shop.token,
    });
    expect(file.text).toBe(
      `ok@example.com,50.00,USD,${created.batchId},Payout batch ${created.batchId},PAYPAL\n`,
    );
  });

  it.each(['FAILED', 'RETURNED'] as const)(
    'paypal item %s → failed and credited back exactly once',
    async (status) => {
      const v = await createVendor(t, shop, `PayPal ${status}`);
      const receiver = `${status.toLowerCase()}@example.com`;
      paypal.statusOf.set(receiver, status);
      await setMethod(t, shop, v._id, { type: 'paypal', receiver, recipientType: 'EMAIL' });
      const created = await payBatch(t, shop, v._id, 40.25);
      const failed = await transferIn(t, shop, created._id, 'failed');
      expect(failed.lastError).toContain(status);
      const credit = await eventually(async () => {
        const a = await additions(t, shop, v._id);
        if (a.length !== 1) throw new Error(`${a.length} credits`);
        return a[0];
      });
      expect(credit).toMatchObject({ _id: created._id, amount: 40.25, status: 'UNPAID' });
      // Driving it again (the sweeper, a repeated job) credits nothing more.
      await t.app
        .get((await import('../../src/transfers/transfers.processor')).TransferMaintenanceProcessor)
        .sweepNow();
      expect(await additions(t, shop, v._id)).toHaveLength(1);
    },
  );

  it('paypal UNCLAIMED waits, and fails (credited back) once 30 days have passed', async () => {
    const v = await createVendor(t, shop, 'PayPal Unclaimed');
    paypal.statusOf.set('unclaimed@example.com', 'UNCLAIMED');
    await setMethod(t, shop, v._id, {
      type: 'paypal',
      receiver: 'unclaimed@example.com',
      recipientType: 'EMAIL',
    });
    const created = await payBatch(t, shop, v._id, 10);
    await eventually(async () => {
      const r = await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token });
      if (r.body.providerStatus !== 'UNCLAIMED') throw new Error(String(r.body.providerStatus));
      expect(r.body.state).toBe('sent');
    });
    t.clock.advance(31 * 24 * 3600 * 1000);
    try {
      // 31 days on, the shop signs in again (its token of "today" has expired).
      const auth = await t.api.post('/v1/authenticate', { apiKey: shop.apiKey, shopDomain: shop.shopDomain });
      const later = { ...shop, token: auth.body.token };
      const failed = await transferIn(t, later, created._id, 'failed');
      expect(failed.lastError).toMatch(/UNCLAIMED for 30 days/);
      await eventually(async () =>
        expect((await additions(t, later, v._id)).map((a) => a.amount)).toEqual([10]),
      );
    } finally {
      t.clock.reset();
    }
  });

  it('refused after the attempts → failed, credited back once, and the next payout batch pays the credit', async () => {
    const v = await createVendor(t, shop, 'Refused Vendor');
    stripe.refused.add('acct_refused');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_refused' });
    const created = await payBatch(t, shop, v._id, 77.7);
    const failed = await transferIn(t, shop, created._id, 'failed');
    expect(failed.attempts).toBe(2);
    expect(failed.lastError).toMatch(/account_invalid/);
    const credited = await eventually(async () => {
      const r = await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token });
      if (!r.body.creditAdjustmentId) throw new Error('not credited yet');
      return r.body;
    });
    expect(credited.creditAdjustmentId).toBe(created._id);
    // The next batch (the real engine) pays the credit: the vendor's money is owed again, not lost.
    const until = dayOf(t.clock.now());
    const run = await t.api.post('/v1/payouts/batches', { vendorId: v._id, until }, { token: shop.token });
    expect(run.status).toBe(202);
    const batch = await eventually(async () => {
      const b = await t.api.get(`/v1/payouts/batches/${run.body.batchIds[0]}`, { token: shop.token });
      if (b.body.status !== 'completed') throw new Error(b.body.status);
      return b.body;
    });
    expect(cents(batch.adjustmentTotal)).toBe(cents('77.70'));
    expect((await additions(t, shop, v._id))[0].status).toBe('PAID');
    // …so the failed transfer can no longer be sent again.
    const retry = await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, {}, { token: shop.token });
    expect(retry.status).toBe(409);
  });

  it('retry of a failed transfer withdraws its unpaid credit and sends it again (credit still once)', async () => {
    const v = await createVendor(t, shop, 'Retry Vendor');
    stripe.refused.add('acct_flaky');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_flaky' });
    const created = await payBatch(t, shop, v._id, 12.34);
    await transferIn(t, shop, created._id, 'failed');
    // The credit follows the move to failed (the same job, a moment later).
    await eventually(async () => expect(await additions(t, shop, v._id)).toHaveLength(1));
    // The account is fixed at Stripe; the retry uses a new idempotency answer only because the
    // stand-in forgets refusals on request (Stripe keys a refusal for 24 h: a retry after that).
    stripe.refused.delete('acct_flaky');
    stripe.forgetKey(created._id);
    const retry = await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, {}, { token: shop.token });
    expect(retry.status).toBe(200);
    expect(retry.body.state).toBe('pending');
    expect(await additions(t, shop, v._id)).toHaveLength(0);
    await transferIn(t, shop, created._id, 'paid');
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
    expect(await additions(t, shop, v._id)).toHaveLength(0);
  });

  it('a provider outage leaves the transfer pending and it is retried until paid, once', async () => {
    const v = await createVendor(t, shop, 'Outage Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_outage' });
    stripe.outage = true;
    let created;
    try {
      created = await payBatch(t, shop, v._id, 5.55);
      const pending = await eventually(async () => {
        const r = await t.api.get(`/v1/payouts/transfers/${created!._id}`, { token: shop.token });
        if (!r.body.lastError) throw new Error('no attempt yet');
        return r.body;
      });
      expect(pending.state).toBe('pending');
      expect(pending.lastError).toMatch(/Stripe unavailable/);
    } finally {
      stripe.outage = false;
    }
    await transferIn(t, shop, created._id, 'paid', 45_000);
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
  });

  it('lists with filters and offset paging; another shop sees none of it (404)', async () => {
    const all = await t.api.get('/v1/payouts/transfers?limit=1', { token: shop.token });
    expect(all.status).toBe(200);
    expect(all.body.transfers).toHaveLength(1);
    expect(all.body.nextOffset).toBe(1);
    const paid = await t.api.get('/v1/payouts/transfers?state=paid&method=stripe_connect', {
      token: shop.token,
    });
    expect(
      paid.body.transfers.every(
        (x: { state: string; method: string }) => x.state === 'paid' && x.method === 'stripe_connect',
      ),
    ).toBe(true);
    expect((await t.api.get('/v1/payouts/transfers?state=nope', { token: shop.token })).status).toBe(422);
    expect((await t.api.get('/v1/payouts/transfers?start=2026-02-30', { token: shop.token })).status).toBe(
      422,
    );
    const id = all.body.transfers[0]._id;
    const batchId = all.body.transfers[0].batchId;
    expect((await t.api.get(`/v1/payouts/transfers/${id}`, { token: other.token })).status).toBe(404);
    expect(
      (await t.api.post(`/v1/payouts/transfers/${id}/confirm`, { reference: 'x' }, { token: other.token }))
        .status,
    ).toBe(404);
    expect((await t.api.post(`/v1/payouts/transfers/${id}/retry`, {}, { token: other.token })).status).toBe(
      404,
    );
    expect((await t.api.get(`/v1/payouts/batches/${batchId}/bank-file`, { token: other.token })).status).toBe(
      404,
    );
    expect((await t.api.get('/v1/payouts/transfers', { token: other.token })).body.total).toBe(0);
    expect((await t.api.get('/v1/payouts/transfers/not-an-id', { token: shop.token })).status).toBe(404);
  });
  it('metrics: transfers by state and method, amount paid by rail, provider latency and errors', async () => {
    const text = await (await fetch(`${t.app.get(OpsServer).url()}/metrics`)).text();
    const value = (series: string) =>
      Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('marketplace_transfers_total{method="stripe_connect",state="paid"}')).toBeGreaterThanOrEqual(
      3,
    );
    expect(value('marketplace_transfers_total{method="paypal",state="failed"}')).toBeGreaterThanOrEqual(3);
    expect(
      value('marketplace_transfers_total{method="manual",state="awaiting_reference"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(value('marketplace_transfer_paid_amount_total{method="manual"}')).toBeGreaterThanOrEqual(99.9);
    expect(
      value('marketplace_payout_provider_errors_total{provider="stripe",kind="refused"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      value('marketplace_payout_provider_errors_total{provider="stripe",kind="outage"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(
      /^marketplace_payout_provider_request_duration_seconds_count\{provider="paypal",operation="payouts.create",outcome="ok"\} \d+$/m,
    );
  });

  it('CLI payouts:transfers --state failed lists the failed ones (built dist/cli/main.js)', async () => {
    const { stdout } = await promisify(execFile)(
      'node',
      [
        join(__dirname, '..', '..', 'dist', 'cli', 'main.js'),
        'payouts:transfers',
        '--domain',
        shop.shopDomain,
        '--state',
        'failed',
      ],
      { env: process.env },
    );
    const out = JSON.parse(stdout) as {
      shopDomain: string;
      total: number;
      transfers: Array<{ state: string }>;
    };
    expect(out.shopDomain).toBe(shop.shopDomain);
    expect(out.total).toBeGreaterThanOrEqual(3);
    expect(out.transfers).toHaveLength(out.total);
    expect(out.transfers.every((x) => x.state === 'failed')).toBe(true);
  });
});
