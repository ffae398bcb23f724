/* eslint-disable @typescript-eslint/no-explicit-any */
import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import Stripe from 'stripe';
import { PayoutAdjustmentsService } from '../../src/adjustments/payout-adjustments.service';
import { TransferMaintenanceProcessor } from '../../src/transfers/transfers.processor';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { amount, day, payoutOf, refundScenario } from '../support/refund-scenario';
import {
  additions,
  cents,
  payBatch,
  setMethod,
  STRIPE_KEY,
  STRIPE_WEBHOOK_SECRET,
  transferIn,
} from '../support/transfers';
import { eventually, waitForWebhooks } from '../support/webhooks';
import { StripeStandin } from '../standins/stripe-standin';
import { Receiver } from '../support/receiver';
import { Webhook } from 'standardwebhooks';

/**
 * Partial Stripe reversals (issue 28): Stripe sends one signed `transfer.reversed` per reversal,
 * its Transfer object carrying the running `amount_reversed`. Each credits back exactly the
 * increase over what is already credited, once, in any order of arrival and on redelivery, never
 * more than the transfer. Figures to the cent against BigInt cents; payouts:reconcile proves the
 * batches with several credit-backs of one transfer.
 */
describe('Partial Stripe reversals (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const stripe = new StripeStandin();

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true'; // the event receiver listens on loopback
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rails-reversals-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'rails-reversals');
    await providers(shop);
  });

  afterAll(async () => {
    await t?.close();
    await stripe.stop();
    delete process.env.STRIPE_API_BASE_URL;
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  });

  async function providers(s: TestShop) {
    const res = await t.api.put(
      '/v1/shop/payout-providers',
      { stripeSecretKey: STRIPE_KEY, stripeWebhookSecret: STRIPE_WEBHOOK_SECRET },
      { token: s.token },
    );
    expect(res.status).toBe(200);
  }

  /** The signed event Stripe sends after a reversal brought the transfer to `totalMinor` reversed. */
  function reversedEvent(providerId: string, totalMinor: number) {
    const tr = stripe.reverse(providerId, totalMinor);
    const reversals = tr.reversals.filter((_, i, all) => {
      const upTo = all.slice(i).reduce((s, r) => s + r.amount, 0);
      return upTo <= totalMinor;
    });
    return JSON.stringify({
      id: `evt_${providerId}_${totalMinor}`,
      object: 'event',
      type: 'transfer.reversed',
      data: {
        object: {
          id: tr.id,
          object: 'transfer',
          amount: tr.amount,
          amount_reversed: totalMinor,
          reversed: totalMinor === tr.amount,
          reversals: { object: 'list', data: reversals, has_more: false },
          metadata: tr.metadata,
        },
      },
    });
  }

  const post = (payload: string) =>
    t.api.post('/webhooks/stripe', undefined, {
      raw: payload,
      headers: {
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: STRIPE_WEBHOOK_SECRET,
        }),
      },
    });

  async function deliver(payload: string) {
    const res = await post(payload);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Σ of the vendor's ADDITIONs in cents, once it reads `expected` (the inbox applies them on a queue). */
  async function creditedReaches(s: TestShop, vendorId: string, expected: bigint) {
    return eventually(async () => {
      const got = (await additions(t, s, vendorId)).reduce((sum, a) => sum + cents(a.amount), 0n);
      if (got !== expected) throw new Error(`credited ${got} cents, waiting for ${expected}`);
      return got;
    });
  }

  /** After the event is applied (its inbox delivery processed), the credits read `expected`. */
  async function stays(s: TestShop, vendorId: string, expected: bigint, payload: string | null) {
    if (payload) await waitForWebhooks(t, s, [`stripe:${JSON.parse(payload).id}`]);
    const got = (await additions(t, s, vendorId)).reduce((sum, a) => sum + cents(a.amount), 0n);
    expect(got).toBe(expected);
  }

  async function paidStripeTransfer(name: string, amountDecimal: number) {
    const v = await createVendor(t, shop, name);
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: `acct_${name.replace(/\W/g, '')}` });
    const created = await payBatch(t, shop, v._id, amountDecimal);
    const paid = await transferIn(t, shop, created._id, 'paid');
    return { vendorId: v._id, transferId: created._id, providerId: paid.providerId! };
  }

  it('10.00 then 40.00 reversed in total credit 40.00; redelivered nothing more; a full reversal then credits the rest (100.00)', async () => {
    // The shop's ERP hears of each reversal (transfer.failed, as a reversal always was told).
    const receiver = await Receiver.start();
    const endpoint = await t.api.post(
      '/v1/webhook-endpoints',
      { url: receiver.url, enabledEvents: ['transfer.failed'] },
      { token: shop.token },
    );
    expect(endpoint.status).toBe(200);
    const hook = new Webhook(endpoint.body.secret as string);
    const x = await paidStripeTransfer('Partial In Order', 100);
    const first = reversedEvent(x.providerId, 1000);
    await deliver(first);
    await creditedReaches(shop, x.vendorId, 1000n);
    const second = reversedEvent(x.providerId, 4000);
    await deliver(second);
    await creditedReaches(shop, x.vendorId, 4000n);
    // Stripe retries both: acknowledged as duplicates, nothing applied twice.
    expect((await deliver(second)).duplicate).toBe(true);
    expect((await deliver(first)).duplicate).toBe(true);
    await stays(shop, x.vendorId, 4000n, null);
    const full = reversedEvent(x.providerId, 10000);
    await deliver(full);
    await creditedReaches(shop, x.vendorId, 10000n);
    await stays(shop, x.vendorId, 10000n, full);
    const tr = await transferIn(t, shop, x.transferId, 'reversed');
    expect((tr as any).reversedAmount).toBe(100);
    const credits = await additions(t, shop, x.vendorId);
    expect(credits.map((c) => c._id).sort()).toEqual(
      [...((tr as any).creditAdjustmentIds as string[])].sort(),
    );
    expect(credits.map((c) => cents(c.amount)).sort()).toEqual([1000n, 3000n, 6000n].sort());
    // the first credit keeps the transfer's own id
    expect(credits.find((c) => c._id === x.transferId)?.amount).toBe(10);
    // one transfer.failed per increment, each with the total reversed then; none for the repeats
    const told = await eventually(async () => {
      const got = receiver.received
        .map((r) => hook.verify(r.body, r.headers) as any)
        .filter((e) => e.data.object._id === x.transferId);
      if (got.length < 3) throw new Error(`${got.length} events`);
      return got;
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.length).toBe(told.length);
    // (deliveries may arrive in any order)
    told.sort((a, b) => a.data.object.reversedAmount - b.data.object.reversedAmount);
    expect(told.map((e) => [e.type, e.data.object.reversedAmount])).toEqual([
      ['transfer.failed', 10],
      ['transfer.failed', 40],
      ['transfer.failed', 100],
    ]);
    await receiver.close();
  });

  it('out of order: 40.00 in total first, then the older 10.00 event → 40.00; then the full reversal → 100.00', async () => {
    const x = await paidStripeTransfer('Partial Out Of Order', 100);
    const older = reversedEvent(x.providerId, 1000);
    const newer = reversedEvent(x.providerId, 4000);
    await deliver(newer);
    await creditedReaches(shop, x.vendorId, 4000n);
    expect((await deliver(older)).duplicate).toBe(false);
    await stays(shop, x.vendorId, 4000n, older);
    // The same total under a fresh event id (a second event for a reversal already credited).
    const repeat = newer.replace(`evt_${x.providerId}_4000`, `evt_${x.providerId}_4000b`);
    await deliver(repeat);
    await stays(shop, x.vendorId, 4000n, repeat);
    await deliver(reversedEvent(x.providerId, 10000));
    await creditedReaches(shop, x.vendorId, 10000n);
    const tr = await transferIn(t, shop, x.transferId, 'reversed');
    expect((tr as any).reversedAmount).toBe(100);
    // each increment is one transfer.failed move in the history (a reversal is a failure to listeners)
    expect(tr.history.map((h) => h.to)).toEqual(['pending', 'paid', 'reversed', 'reversed']);
  });

  it('through the payout engine: two partial reversals, the next batch pays both credits, payouts:reconcile is ok', async () => {
    const s = await refundScenario(t, 'rv-engine');
    await providers(s.shop);
    const vendorId = s.vendors[0]._id;
    await setMethod(t, s.shop, vendorId, { type: 'stripe_connect', accountId: 'acct_rvEngine' });
    await s.send('orders/create', await s.order([{ price: '50.00', quantity: 2 }], day(-5)));
    const earned = payoutOf('50.00', 2, 10); // 90.00
    const batch = await s.batch(day(-3));
    expect(cents(batch.total)).toBe(earned);
    const transfer = await eventually(async () => {
      const b = await t.api.get(`/v1/payouts/batches/${batch._id}`, { token: s.shop.token });
      if (b.body.transfer?.state !== 'paid') throw new Error(String(b.body.transfer?.state));
      return b.body.transfer;
    });
    await deliver(reversedEvent(transfer.providerId, 1500));
    await deliver(reversedEvent(transfer.providerId, 2500));
    await creditedReaches(s.shop, vendorId, 2500n);
    const late = reversedEvent(transfer.providerId, 1500).replace('_1500"', '_1500late"');
    await deliver(late);
    await stays(s.shop, vendorId, 2500n, late);
    const next = await s.batch(day(0));
    expect(cents(next.total)).toBe(2500n); // both credit-backs, paid again
    await eventually(async () => {
      const b = await t.api.get(`/v1/payouts/batches/${next._id}`, { token: s.shop.token });
      if (b.body.transfer?.state !== 'paid') throw new Error(String(b.body.transfer?.state));
    });
    const proof = await s.reconcile();
    expect(proof.vendors[0].transfers).toEqual({
      transferred: amount(earned + 2500n),
      creditedBack: amount(2500n),
      creditPaid: amount(2500n),
      delivered: amount(earned),
    });
  });

  it('a process dying between the reversal write and its credit: the transfer sweeper finishes it, once (held until then)', async () => {
    const x = await paidStripeTransfer('Partial Crash', 100);
    await deliver(reversedEvent(x.providerId, 1000));
    await creditedReaches(shop, x.vendorId, 1000n);
    // The next credit is written held, then the process "dies" before releasing it.
    const adjustments = t.app.get(PayoutAdjustmentsService);
    const release = adjustments.releaseSystemAddition;
    adjustments.releaseSystemAddition = async () => {
      adjustments.releaseSystemAddition = release;
      throw new Error('killed before the credit was released');
    };
    await deliver(reversedEvent(x.providerId, 4000));
    const db = t.app.get<Connection>(getConnectionToken()).db!;
    const id = new Types.ObjectId(x.transferId);
    // Left held: dated past any cut-off, so no batch can pay it before it is confirmed (the inbox
    // retries the delivery only after 2 s).
    await eventually(async () => {
      // (the shop and vendor: a shape an index serves — the index-coverage gate reads tests' reads too)
      const left = (
        await db
          .collection('payout_adjustments')
          .find({ shopId: new Types.ObjectId(shop.shopId), vendorId: new Types.ObjectId(x.vendorId) })
          .toArray()
      ).sort((a, b) => a.amount - b.amount);
      expect(left.map((a) => [a.amount, (a.customItemDate as Date).getUTCFullYear() === 9999])).toEqual([
        [10, false],
        [30, true],
      ]);
    });
    const raised = await db.collection('transfers').findOne({ _id: id });
    expect([raised?.reversedAmount, raised?.creditAdjustmentId]).toEqual([40, null]);
    // Its write is older than the sweeper's quiet period (the inbox's own retry may finish it first).
    await db
      .collection('transfers')
      .updateOne({ _id: id }, { $set: { updatedAt: new Date(Date.now() - 3600_000) } });
    const sweeper = t.app.get(TransferMaintenanceProcessor);
    await sweeper.sweepNow();
    await sweeper.sweepNow();
    const credits = await additions(t, shop, x.vendorId);
    expect(credits.reduce((sum, a) => sum + cents(a.amount), 0n)).toBe(4000n);
    const stored = await db
      .collection('payout_adjustments')
      .find({ _id: { $in: credits.map((c) => new Types.ObjectId(c._id)) } })
      .toArray();
    expect(stored.map((a) => (a.customItemDate as Date).getUTCFullYear() < 9999)).toEqual([true, true]);
    const tr = await t.api.get(`/v1/payouts/transfers/${x.transferId}`, { token: shop.token });
    expect(tr.body.creditAdjustmentId).toBe(tr.body.creditAdjustmentIds[1]);
  });

  it('a reversal of another shop’s transfer id is not applied here (only the shop’s own secret verifies)', async () => {
    const other = await createShop(t, 'rails-reversals-other');
    const x = await paidStripeTransfer('Partial Foreign', 30);
    const payload = reversedEvent(x.providerId, 1000);
    const res = await t.api.post(`/webhooks/stripe?shop=${other.shopDomain}`, undefined, {
      raw: payload,
      headers: {
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: STRIPE_WEBHOOK_SECRET,
        }),
      },
    });
    expect(res.status).toBe(401);
    await stays(shop, x.vendorId, 0n, null);
  });
});
