import { PayoutAdjustmentsService } from '../../src/adjustments/payout-adjustments.service';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { additions, cents, payBatch, setMethod, STRIPE_KEY, transferIn } from '../support/transfers';
import { eventually } from '../support/webhooks';
import { StripeStandin } from '../standins/stripe-standin';

/**
 * Issue 28, finding 3: an operator retry racing a failure's credit-back. Stripe refuses the
 * transfer (one refusal fails it), and the credit-back is paused between the transfer's move to
 * `failed` and the credit, deterministically (a hook on the adjustments service of the running
 * app), while `POST /v1/payouts/transfers/{id}/retry` runs over HTTP. After the race the vendor
 * must be owed the amount exactly once: re-sent and paid with no credit, or failed with one.
 */
describe('Payout rails: a retry racing the credit-back (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  const stripe = new StripeStandin();

  beforeAll(async () => {
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    process.env.TRANSFER_MAX_ATTEMPTS = '1';
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rails-race-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'rails-race');
    const creds = await t.api.put(
      '/v1/shop/payout-providers',
      { stripeSecretKey: STRIPE_KEY },
      { token: shop.token },
    );
    expect(creds.status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await stripe.stop();
    delete process.env.STRIPE_API_BASE_URL;
    delete process.env.TRANSFER_MAX_ATTEMPTS;
  });

  /** Pauses the next credit-back write until `release()`; `paused` resolves when it is reached. */
  function pauseNextCredit() {
    const service = t.app.get(PayoutAdjustmentsService);
    const original = service.createSystemAddition;
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const paused = new Promise<void>((r) => (reached = r));
    service.createSystemAddition = async function (this: PayoutAdjustmentsService, ...args) {
      service.createSystemAddition = original;
      reached();
      await gate;
      return original.apply(this, args);
    };
    return { paused, release: () => release() };
  }

  it('retry while the failure is between its move and its credit: paid once, no credit left', async () => {
    const v = await createVendor(t, shop, 'Race Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_race' });
    stripe.refused.add('acct_race');
    const pause = pauseNextCredit();
    const created = await payBatch(t, shop, v._id, 70.01);
    await pause.paused; // the transfer is failed; its credit-back is not written yet
    const failed = await transferIn(t, shop, created._id, 'failed');
    expect(failed.history.map((h) => h.to)).toEqual(['pending', 'failed']);
    stripe.refused.delete('acct_race');
    stripe.forgetKey(created._id); // Stripe replays a refusal for the same key for 24 h
    const retry = await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, undefined, {
      token: shop.token,
    });
    pause.release();
    expect(retry.status).toBe(200);
    const end = await transferIn(t, shop, created._id, 'paid');
    // The credit-back finishes after the retry: give it time to (wrongly) leave a credit behind.
    await eventually(async () => {
      const tr = await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token });
      if (tr.body.creditAdjustmentIds?.length) throw new Error('credits still listed');
    });
    await new Promise((r) => setTimeout(r, 500));
    const credits = await additions(t, shop, v._id);
    const owedTwice = credits.reduce((s, a) => s + cents(a.amount), 0n);
    expect([end.state, owedTwice]).toEqual(['paid', 0n]);
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
  });

  it('without a race the failure credits once and a retry takes the credit back', async () => {
    const v = await createVendor(t, shop, 'No Race Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_norace' });
    stripe.refused.add('acct_norace');
    const created = await payBatch(t, shop, v._id, 12.34);
    await transferIn(t, shop, created._id, 'failed');
    const credit = await eventually(async () => {
      const a = await additions(t, shop, v._id);
      if (a.length !== 1) throw new Error(`${a.length} credits`);
      return a[0];
    });
    expect(credit).toMatchObject({ _id: created._id, amount: 12.34, status: 'UNPAID' });
    stripe.refused.delete('acct_norace');
    stripe.forgetKey(created._id);
    const retry = await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, undefined, {
      token: shop.token,
    });
    expect(retry.status).toBe(200);
    await transferIn(t, shop, created._id, 'paid');
    expect(await additions(t, shop, v._id)).toEqual([]);
  });
});
