import { PayoutScheduler } from '../../src/payout-schedule/payout-scheduler.service';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { c } from '../support/refund-scenario';
import { createVendor, seedOrder } from '../support/payout-fixtures';
import { DAY, HOUR } from '../support/test-clock';
import { vendorKeyToken } from '../support/vendor-keys';

// Scheduled runs create batches on this file's own queue (its app runs them, no other file's app).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-payout-schedule`;

/** Issue 33 / DESIGN §15: payouts on a schedule, with the clock moved by the test. */
jest.setTimeout(240_000);

describe('payouts on a schedule (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const isoWeekday = (ms: number) => ((new Date(ms).getUTCDay() + 6) % 7) + 1;
  const tick = () => t.app.get(PayoutScheduler).tickNow(30_000);
  const runsOf = async (s: TestShop, query = '') => {
    const res = await t.api.get(`/v1/payouts/runs${query}`, { token: s.token });
    if (res.status !== 200) throw new Error(`GET /v1/payouts/runs: ${res.status} ${res.text}`);
    return res.body as {
      total: number;
      runs: Array<{
        dueDate: string;
        vendors: Array<{ vendorName: string; batchId: string | null }>;
        [k: string]: unknown;
      }>;
    };
  };
  const signedIn: TestShop[] = [];
  /** Moves the clock, then signs every shop in again (a token expires with the moved clock). */
  const moveTo = async (ms: number) => {
    t.clock.advance(ms - t.clock.now().getTime());
    for (const s of signedIn) {
      const res = await t.api.post('/v1/authenticate', { apiKey: s.apiKey, shopDomain: s.shopDomain });
      s.token = res.body.token;
    }
  };

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'sched');
    other = await createShop(t, 'sched-other');
    signedIn.push(shop, other);
  }, 240_000);
  afterAll(() => t.close());

  const zero = { commissionType: 'percentage' as const, commissionAmount: 0 };
  const manualMethod = (s: TestShop, id: string) =>
    t.api.put(`/v1/vendors/${id}/payout-method`, { type: 'manual' }, { token: s.token });

  it('validates the schedule: 422 with field errors, nothing stored', async () => {
    for (const [body, field] of [
      [{ frequency: 'weekly' }, 'payoutSchedule.dayOfWeek'],
      [{ frequency: 'monthly', dayOfMonth: 29 }, 'dayOfMonth'],
      [{ frequency: 'weekly', dayOfWeek: 8 }, 'dayOfWeek'],
      [{ frequency: 'daily' }, 'frequency'],
      [{ frequency: 'weekly', dayOfWeek: 1, holdDays: 91 }, 'holdDays'],
      [{ frequency: 'weekly', dayOfWeek: 1, minimumPayout: -1 }, 'minimumPayout'],
    ] as const) {
      const res = await t.api.put('/v1/shop/settings', { payoutSchedule: body }, { token: other.token });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain(field);
    }
    const read = await t.api.get('/v1/shop/settings', { token: other.token });
    expect(read.body.settings.payoutSchedule).toEqual({
      frequency: 'manual',
      dayOfWeek: null,
      dayOfMonth: null,
      holdDays: 0,
      minimumPayout: 0,
      scheduleSetAt: null,
    });
    expect(read.body.settings.requireCompleteTaxProfile).toBe(false);
  });

  it('weekly: fires on its day only, holds recent rows, rolls a vendor under its minimum over, skips paused and method-less vendors, never pays a row twice beside a manual batch', async () => {
    const t0 = t.clock.now().getTime();
    const today = Math.floor(t0 / DAY) * DAY;
    const d1 = today + 2 * DAY; // the first due date: the weekday two days from now
    const d2 = d1 + 7 * DAY;
    const put = await t.api.put(
      '/v1/shop/settings',
      { payoutSchedule: { frequency: 'weekly', dayOfWeek: isoWeekday(d1), holdDays: 3, minimumPayout: 20 } },
      { token: shop.token },
    );
    expect(put.status).toBe(200);
    expect(put.body.settings.payoutSchedule).toMatchObject({
      frequency: 'weekly',
      holdDays: 3,
      minimumPayout: 20,
    });

    const alpha = await createVendor(t, shop, 'sched alpha', zero);
    const beta = await createVendor(t, shop, 'sched beta', zero);
    const gamma = await createVendor(t, shop, 'sched gamma', zero);
    const delta = await createVendor(t, shop, 'sched delta', zero);
    for (const v of [alpha, beta, gamma]) expect((await manualMethod(shop, v._id)).status).toBe(200);
    // beta's own minimum 100 overrides the shop's 20; gamma is paused
    const betaSet = await t.api.put(
      `/v1/vendors/${beta._id}/payout-settings`,
      { paused: false, minimumPayout: 100 },
      { token: shop.token },
    );
    expect(betaSet.status).toBe(200);
    expect(betaSet.body).toMatchObject({
      paused: false,
      minimumPayout: 100,
      effectiveMinimumPayout: 100,
      effectiveHoldDays: 3,
    });
    expect(
      (await t.api.put(`/v1/vendors/${gamma._id}/payout-settings`, { paused: true }, { token: shop.token }))
        .status,
    ).toBe(200);

    const at = (ms: number) => new Date(ms + 12 * HOUR);
    await seedOrder(t, shop, {
      createdAt: at(d1 - 5 * DAY),
      lines: [{ vendor: alpha.vendorName, price: 30 }],
    });
    // inside the hold window of d1 (cut-off d1 − 3 days)
    await seedOrder(t, shop, {
      createdAt: at(d1 - 1 * DAY),
      lines: [{ vendor: alpha.vendorName, price: 40 }],
    });
    const refund = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: alpha._id, amount: 10, type: 'DEDUCTION', customItemDate: at(d1 - 2 * DAY).toISOString() },
      { token: shop.token },
    );
    expect(refund.status).toBe(201);
    await seedOrder(t, shop, {
      createdAt: at(d1 - 5 * DAY),
      lines: [{ vendor: beta.vendorName, price: 60 }],
    });
    await seedOrder(t, shop, {
      createdAt: at(d1 - 5 * DAY),
      lines: [{ vendor: gamma.vendorName, price: 25 }],
    });
    await seedOrder(t, shop, {
      createdAt: at(d1 - 5 * DAY),
      lines: [{ vendor: delta.vendorName, price: 15 }],
    });

    // before the due date: no run
    await moveTo(d1 - HOUR);
    await tick();
    expect((await runsOf(shop)).total).toBe(0);

    // eligibility before the run: the oracle of each reason
    const elig = async (id: string) =>
      (await t.api.get(`/v1/vendors/${id}/payout-eligibility`, { token: shop.token })).body;
    expect(await elig(alpha._id)).toEqual({
      vendorId: alpha._id,
      eligible: true,
      reasons: [],
      nextPayout: { date: ymd(d1), estimatedAmount: 30, net: 30, periodEnd: ymd(d1 - 3 * DAY) },
    });
    expect(await elig(beta._id)).toMatchObject({
      eligible: false,
      reasons: ['below_minimum'],
      nextPayout: { estimatedAmount: 0, net: 60 },
    });
    expect(await elig(gamma._id)).toMatchObject({ eligible: false, reasons: ['paused'] });
    expect(await elig(delta._id)).toMatchObject({
      eligible: false,
      reasons: ['below_minimum', 'no_payout_method'], // 15.00 < the shop's 20.00, and no method
    });

    // the due date comes: one run, d1
    await moveTo(d1 + HOUR);
    await tick();
    await tick(); // a second tick changes nothing
    const runs = { body: await runsOf(shop) };
    expect(runs.body.total).toBe(1);
    const run1 = runs.body.runs[0];
    expect(run1).toMatchObject({ dueDate: ymd(d1), state: 'completed', holdDays: 3, minimumPayout: 20 });
    const byName = (run: { vendors: Array<{ vendorName: string; batchId: string | null }> }, n: string) =>
      run.vendors.find((v) => v.vendorName === n);
    expect(byName(run1, alpha.vendorName)).toMatchObject({
      status: 'completed',
      total: 30,
      periodEnd: ymd(d1 - 3 * DAY),
    });
    expect(byName(run1, beta.vendorName)).toMatchObject({ status: 'below_minimum', total: 0, net: 60 });
    expect(byName(run1, gamma.vendorName)).toMatchObject({ skipped: 'paused', batchId: null });
    expect(byName(run1, delta.vendorName)).toMatchObject({ skipped: 'no_payout_method', batchId: null });
    expect(run1.totals).toEqual({
      batches: 2,
      paidBatches: 1,
      skippedVendors: 2,
      paid: 30,
      carriedForward: 0,
      belowMinimum: 60,
    });
    const one = await t.api.get(`/v1/payouts/runs/${run1._id}`, { token: shop.token });
    expect(one.body).toEqual(run1);
    const betaBatch = await t.api.get(`/v1/payouts/batches/${byName(run1, beta.vendorName)!.batchId}`, {
      token: shop.token,
    });
    expect(betaBatch.body).toMatchObject({ status: 'below_minimum', total: 0 });

    // a manual batch in between (alpha, up to d1 + 1): pays the held 40 less the 10 refund, once
    await moveTo(d1 + 2 * DAY);
    const manual = await t.api.post(
      '/v1/payouts/batches',
      { vendorId: alpha._id, until: ymd(d1 + DAY) },
      { token: shop.token },
    );
    expect(manual.status).toBe(202);
    const manualId = manual.body.batchIds[0];
    let manualBatch: { status: string; total: number } = { status: 'queued', total: 0 };
    for (let i = 0; i < 100 && !['completed', 'carried_forward'].includes(manualBatch.status); i++) {
      await new Promise((r) => setTimeout(r, 100));
      manualBatch = (await t.api.get(`/v1/payouts/batches/${manualId}`, { token: shop.token })).body;
    }
    expect(manualBatch).toMatchObject({ status: 'completed', total: 30 });

    // beta earns 50 more; the next due date pays its 110 (≥ 100) and nothing of alpha again
    await seedOrder(t, shop, { createdAt: at(d1 + DAY), lines: [{ vendor: beta.vendorName, price: 50 }] });
    await moveTo(d2 - HOUR);
    await tick();
    expect((await runsOf(shop)).total).toBe(1);
    await moveTo(d2 + HOUR);
    await tick();
    const after = { body: await runsOf(shop) };
    expect(after.body.runs.map((r: { dueDate: string }) => r.dueDate)).toEqual([ymd(d2), ymd(d1)]);
    const run2 = after.body.runs[0];
    expect(byName(run2, alpha.vendorName)).toBeUndefined();
    expect(byName(run2, beta.vendorName)).toMatchObject({ status: 'completed', total: 110 });
    expect(run2.totals).toMatchObject({ paid: 110, belowMinimum: 0 });

    // Σ paid per vendor = Σ earned (BigInt cents), each row once
    const batches = (await t.api.get('/v1/payouts/batches?limit=100', { token: shop.token })).body
      .batches as Array<{
      vendorId: string;
      total: number;
    }>;
    const paid = (id: string) =>
      batches.filter((b) => b.vendorId === id).reduce((s, b) => s + c(b.total), 0n);
    expect(paid(alpha._id)).toBe(c(30) + c(40) - c(10));
    expect(paid(beta._id)).toBe(c(60) + c(50));
    expect(paid(gamma._id)).toBe(0n);
    expect(paid(delta._id)).toBe(0n);

    // filters: state and due-date range
    const filtered = await t.api.get(`/v1/payouts/runs?state=completed&start=${ymd(d2)}`, {
      token: shop.token,
    });
    expect(filtered.body.runs.map((r: { dueDate: string }) => r.dueDate)).toEqual([ymd(d2)]);
    expect(
      (await t.api.get(`/v1/payouts/runs?start=${ymd(d2)}&end=${ymd(d1)}`, { token: shop.token })).status,
    ).toBe(422);

    // the vendor reads its own settings (payouts:read) and its summary's nextPayout
    const key = await vendorKeyToken(t, shop, beta._id, ['payouts:read']);
    const own = await t.api.get('/payouts/settings', { token: key.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ vendorId: beta._id, minimumPayout: 100 });
    expect((await t.api.get('/v2/payouts/settings', { token: key.token })).body.data.vendorId).toBe(beta._id);
    const summary = await t.api.get('/payouts/summary', { token: key.token });
    expect(summary.body.data.nextPayout).toEqual({ estimatedDate: ymd(d2 + 7 * DAY), estimatedAmount: 0 });
    const noScope = await vendorKeyToken(t, shop, beta._id, ['orders:read']);
    const denied = await t.api.get('/payouts/settings', { token: noScope.token });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.body)).toContain('Insufficient scope');

    // tenancy: another shop's ids → 404; a merchant token on the vendor route → 403
    expect((await t.api.get(`/v1/payouts/runs/${run1._id}`, { token: other.token })).status).toBe(404);
    expect(
      (await t.api.get(`/v1/vendors/${beta._id}/payout-eligibility`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await t.api.put(`/v1/vendors/${beta._id}/payout-settings`, { paused: true }, { token: other.token }))
        .status,
    ).toBe(404);
    const mk = await createMerchantKey(t, shop);
    expect((await t.api.get('/payouts/settings', { token: mk.token })).status).toBe(403);
    const v2 = await t.api.put(
      `/v2/vendors/${beta._id}/payout-settings`,
      { paused: true },
      { token: mk.token },
    );
    expect(v2.status).toBe(200);
    expect(v2.body.data).toMatchObject({ paused: true, minimumPayout: null });
    const mkOther = await createMerchantKey(t, other);
    expect(
      (await t.api.put(`/v2/vendors/${beta._id}/payout-settings`, { paused: true }, { token: mkOther.token }))
        .status,
    ).toBe(404);
  });

  it('monthly: fires on its day of the month, and not the day before', async () => {
    const s = await createShop(t, 'sched-monthly');
    signedIn.push(s);
    t.clock.reset();
    const put = await t.api.put(
      '/v1/shop/settings',
      { payoutSchedule: { frequency: 'monthly', dayOfMonth: 1 } },
      { token: s.token },
    );
    expect(put.status).toBe(200);
    const v = await createVendor(t, s, 'monthly vendor', zero);
    await manualMethod(s, v._id);
    await seedOrder(t, s, {
      createdAt: new Date(t.clock.now().getTime() - DAY),
      lines: [{ vendor: v.vendorName, price: 12.34 }],
    });
    const now = t.clock.now();
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const second = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1);
    const dueDates = async () => ((await runsOf(s)).runs as Array<{ dueDate: string }>).map((r) => r.dueDate);
    await moveTo(first - HOUR);
    await tick();
    expect(await dueDates()).toEqual([]);
    await moveTo(first + HOUR);
    await tick();
    expect(await dueDates()).toEqual([ymd(first)]);
    await moveTo(second - HOUR);
    await tick();
    expect(await dueDates()).toEqual([ymd(first)]);
    await moveTo(second + HOUR);
    await tick();
    expect(await dueDates()).toEqual([ymd(second), ymd(first)]);
    const run = (await runsOf(s)).runs[1];
    expect(run.totals).toMatchObject({ paid: 12.34, paidBatches: 1 });
  });

  it('tax_profile_incomplete only where the shop requires a complete profile', async () => {
    const s = await createShop(t, 'sched-tax');
    t.clock.reset();
    const v = await createVendor(t, s, 'tax vendor', zero);
    await manualMethod(s, v._id);
    const read = async () =>
      (await t.api.get(`/v1/vendors/${v._id}/payout-eligibility`, { token: s.token })).body;
    expect(await read()).toMatchObject({ eligible: true, reasons: [], nextPayout: null });
    expect(
      (await t.api.put('/v1/shop/settings', { requireCompleteTaxProfile: true }, { token: s.token })).status,
    ).toBe(200);
    expect(await read()).toMatchObject({ eligible: false, reasons: ['tax_profile_incomplete'] });
    // a DEDUCTION now: the net is below zero
    await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: v._id, amount: 5, type: 'DEDUCTION' },
      { token: s.token },
    );
    expect(await read()).toMatchObject({ reasons: ['negative_balance', 'tax_profile_incomplete'] });
  });
});
