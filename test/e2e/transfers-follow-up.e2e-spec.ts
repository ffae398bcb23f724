import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Types } from 'mongoose';
import { Transfer } from '../../src/transfers/transfer.schema';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { additions, cents, payBatch, setMethod, STRIPE_KEY, transferIn } from '../support/transfers';
import { eventually } from '../support/webhooks';
import { StripeStandin } from '../standins/stripe-standin';

/**
 * The operator's way out of a transfer that is not final (issue 28, finding 2):
 * POST /v1/payouts/transfers/{id}/follow-up asks the provider and applies its answer, audited. The
 * case it exists for: a Stripe transfer an earlier version left `sent` when it was killed between
 * its two writes (Stripe made the transfer; nothing could settle it: retry and confirm answer 409).
 */
describe('Transfer follow-up (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let transfers: Model<Transfer>;
  const stripe = new StripeStandin();

  beforeAll(async () => {
    process.env.STRIPE_API_BASE_URL = await stripe.start();
    // Its own queues: its transfer jobs must run in this app (whose Stripe is this file's stand-in).
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-followup-${process.pid}`;
    t = await startApp();
    transfers = t.app.get<Model<Transfer>>(getModelToken(Transfer.name));
    shop = await createShop(t, 'followup');
    other = await createShop(t, 'followup-other');
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
  });

  /** The stored transfer (the tenant guard wants the shop in every query). */
  const mine = (id: string) => ({ _id: new Types.ObjectId(id), shopId: new Types.ObjectId(shop.shopId) });
  const stored = (id: string) => transfers.findOne(mine(id)).lean();

  const followUp = (id: string, s: TestShop = shop) =>
    t.api.post(`/v1/payouts/transfers/${id}/follow-up`, {}, { token: s.token });

  /**
   * A Stripe transfer as the two-write version left it when killed between `sent` and `paid`:
   * Stripe made it (under the transfer's id as idempotency key), our record says `sent` with its id.
   */
  async function strandedSent(vendorName: string, amount: number) {
    const v = await createVendor(t, shop, vendorName);
    await setMethod(t, shop, v._id, {
      type: 'stripe_connect',
      accountId: `acct_${vendorName.replace(/\W/g, '')}`,
    });
    stripe.outage = true; // the job's send meets an outage and stays pending
    const created = await payBatch(t, shop, v._id, amount);
    await eventually(async () => {
      const doc = await stored(created._id);
      if (!doc?.lastError) throw new Error('not attempted yet');
    });
    const at = new Date();
    const sent = await transfers
      .findOneAndUpdate(
        { ...mine(created._id), state: 'pending' },
        {
          $set: { state: 'sent', sentAt: at, lastError: null },
          $push: { history: { from: 'pending', to: 'sent', at, by: 'rail', note: null } },
        },
        { new: true },
      )
      .lean();
    expect(sent?.state).toBe('sent');
    stripe.outage = false;
    // Stripe's side of it: the create the killed process made (its answer never recorded paid)
    const res = await fetch(`${stripe.url}/v1/transfers`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${STRIPE_KEY}`,
        'idempotency-key': created._id,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        amount: String(cents(amount)),
        currency: 'usd',
        destination: `acct_${vendorName.replace(/\W/g, '')}`,
        transfer_group: created.batchId,
        'metadata[transferId]': created._id,
      }).toString(),
    });
    const made = (await res.json()) as { id: string; amount: number };
    await transfers.updateOne(mine(created._id), { $set: { providerId: made.id } });
    return { v, created, made };
  }

  it('a Stripe transfer stranded in sent: 503 while Stripe is down (unchanged), then paid once, audited', async () => {
    const { created, made } = await strandedSent('Stranded Vendor', 61.2);
    // retry and confirm have no way out of sent
    expect(
      (await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, {}, { token: shop.token })).status,
    ).toBe(409);

    stripe.outage = true;
    const down = await followUp(created._id);
    stripe.outage = false;
    expect(down.status).toBe(503);
    expect(down.body.error).toMatch(/Stripe unavailable.*Nothing was changed/);
    expect((await stored(created._id))?.state).toBe('sent');

    const res = await followUp(created._id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'paid', providerId: made.id, reference: made.id, amount: 61.2 });
    const last = res.body.history.at(-1);
    expect(last).toMatchObject({ from: 'sent', to: 'paid', by: `shop:${shop.shopId}` });
    // one transfer at Stripe, for the batch total to the cent; nothing credited back
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
    expect(BigInt(stripe.transfers.get(made.id)!.amount)).toBe(cents('61.20'));
    expect(stripe.lookups).toContain(`/v1/transfers/${made.id}`);
    expect((await stored(created._id))?.creditAdjustmentId ?? null).toBeNull();
    expect((await additions(t, shop, (await stored(created._id))!.vendorId.toString())).length).toBe(0);

    const audit = await t.api.get(`/v1/audit-events?action=transfer.follow_up&resourceId=${created._id}`, {
      token: shop.token,
    });
    expect(audit.status).toBe(200);
    expect(audit.body.events).toHaveLength(1);
    expect(audit.body.events[0]).toMatchObject({
      action: 'transfer.follow_up',
      before: { state: 'sent' },
      after: { state: 'paid' },
    });
    // paid is final: another follow-up is a conflict and changes nothing
    const again = await followUp(created._id);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/this one is paid/);
  });

  it('a stranded transfer Stripe reversed meanwhile: paid, then reversed by that much, credited back to the cent', async () => {
    const { v, created, made } = await strandedSent('Reversed Meanwhile', 100);
    stripe.reverse(made.id, 2575);
    const res = await followUp(created._id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'reversed' });
    expect(res.body.history.map((h: { to: string }) => h.to)).toEqual([
      'pending',
      'sent',
      'paid',
      'reversed',
    ]);
    const credit = await eventually(async () => {
      const found = (await additions(t, shop, v._id)).filter((a) => a._id === created._id);
      if (found.length !== 1) throw new Error('no credit-back yet');
      return found[0];
    });
    expect(cents(credit.amount)).toBe(2575n);
  });

  it('a pending transfer Stripe has no trace of is sent now with its key (one transfer), by the caller', async () => {
    const v = await createVendor(t, shop, 'Pending Vendor');
    await setMethod(t, shop, v._id, { type: 'stripe_connect', accountId: 'acct_pendingVendor' });
    stripe.outage = true;
    const created = await payBatch(t, shop, v._id, 12.34);
    await eventually(async () => {
      const doc = await stored(created._id);
      if (!doc?.lastError) throw new Error('not attempted yet');
    });
    stripe.outage = false;
    const res = await followUp(created._id);
    // the queued retry may have paid it first: either way one transfer, paid
    expect([200, 409]).toContain(res.status);
    const paid = await transferIn(t, shop, created._id, 'paid');
    expect(stripe.createdPerKey().get(created._id)).toBe(1);
    if (res.status === 200) expect(paid.history.at(-1)).toMatchObject({ from: 'pending', to: 'paid' });
  });

  it('refuses what has no provider to ask or is final (409), and unknown or foreign ids (404)', async () => {
    const v = await createVendor(t, shop, 'Manual FollowUp');
    const manual = await payBatch(t, shop, v._id, 9.99);
    await transferIn(t, shop, manual._id, 'awaiting_reference');
    const res = await followUp(manual._id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/confirm/);
    expect((await followUp(manual._id, other)).status).toBe(404);
    expect((await followUp(new Types.ObjectId().toHexString())).status).toBe(404);
    expect((await followUp('not-an-id')).status).toBe(404);
    expect((await stored(manual._id))?.state).toBe('awaiting_reference');
  });
});
