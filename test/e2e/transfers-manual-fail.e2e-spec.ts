import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { additions, cents, payBatch, transferIn } from '../support/transfers';

/**
 * The manual rail's way out when the bank refuses the operator's payment (issue 28: an operator path
 * out of every non-final state): POST /v1/payouts/transfers/{id}/fail moves a transfer
 * `awaiting_reference` to `failed` and credits its amount back once, audited; it can then be retried.
 */
describe('Manual transfer refused by the bank (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-manual-${process.pid}`;
    t = await startApp();
    shop = await createShop(t, 'manual-fail');
    other = await createShop(t, 'manual-fail-other');
  });

  afterAll(async () => {
    await t?.close();
  });

  const fail = (s: TestShop, id: string, body: unknown) =>
    t.api.post(`/v1/payouts/transfers/${id}/fail`, body, { token: s.token });

  it('awaiting_reference → failed with the reason, credited back exactly once; then retried', async () => {
    const v = await createVendor(t, shop, 'Refused By Bank');
    const created = await payBatch(t, shop, v._id, 123.45);
    await transferIn(t, shop, created._id, 'awaiting_reference');

    expect((await fail(shop, created._id, {})).status).toBe(422);
    expect((await fail(shop, created._id, { reason: 'bad\u0001reason' })).status).toBe(422);
    expect((await fail(shop, created._id, { reason: 'x'.repeat(501) })).status).toBe(422);
    expect((await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token })).body.state).toBe(
      'awaiting_reference',
    );

    const res = await fail(shop, created._id, { reason: 'Returned by the bank: account closed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'failed', lastError: 'Returned by the bank: account closed' });
    expect(res.body.history.map((h: { to: string }) => h.to)).toEqual([
      'pending',
      'awaiting_reference',
      'failed',
    ]);
    // the same request again answers the failed transfer; another reason is a conflict
    expect((await fail(shop, created._id, { reason: 'Returned by the bank: account closed' })).status).toBe(
      200,
    );
    expect((await fail(shop, created._id, { reason: 'something else' })).status).toBe(409);
    // credited back once, to the cent
    const credits = await additions(t, shop, v._id);
    expect(credits).toHaveLength(1);
    expect(cents(credits[0].amount)).toBe(cents('123.45'));
    expect(credits[0].status).toBe('UNPAID');
    // audited
    const audit = await t.api.get(`/v1/audit-events?resourceType=transfer&resourceId=${created._id}`, {
      token: shop.token,
    });
    expect(audit.status).toBe(200);
    const actions = (audit.body.events ?? audit.body.items ?? []).map((e: { action: string }) => e.action);
    expect(actions).toContain('transfer.fail');

    // the operator pays again: retry withdraws the credit and the manual rail awaits a reference again
    const retry = await t.api.post(`/v1/payouts/transfers/${created._id}/retry`, {}, { token: shop.token });
    expect(retry.status).toBe(200);
    await transferIn(t, shop, created._id, 'awaiting_reference');
    expect(await additions(t, shop, v._id)).toHaveLength(0);
  });

  it('refuses a transfer that is not a manual one awaiting its reference (409), and changes nothing', async () => {
    const v = await createVendor(t, shop, 'Paid By Hand');
    const created = await payBatch(t, shop, v._id, 10);
    await transferIn(t, shop, created._id, 'awaiting_reference');
    const confirm = await t.api.post(
      `/v1/payouts/transfers/${created._id}/confirm`,
      { reference: 'BANK-1' },
      { token: shop.token },
    );
    expect(confirm.status).toBe(200);
    const res = await fail(shop, created._id, { reason: 'too late' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/awaiting its reference/);
    expect((await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token })).body.state).toBe(
      'paid',
    );
    expect(await additions(t, shop, v._id)).toHaveLength(0);
  });

  it('another shop’s transfer, an unknown or a malformed id → 404 (nothing changes)', async () => {
    const v = await createVendor(t, shop, 'Other Shop Target');
    const created = await payBatch(t, shop, v._id, 5);
    await transferIn(t, shop, created._id, 'awaiting_reference');
    expect((await fail(other, created._id, { reason: 'not yours' })).status).toBe(404);
    expect((await fail(shop, '6745a1b2c3d4e5f6a7b8c9d0', { reason: 'unknown' })).status).toBe(404);
    expect((await fail(shop, 'not-an-id', { reason: 'malformed' })).status).toBe(404);
    expect((await t.api.get(`/v1/payouts/transfers/${created._id}`, { token: shop.token })).body.state).toBe(
      'awaiting_reference',
    );
  });
});
