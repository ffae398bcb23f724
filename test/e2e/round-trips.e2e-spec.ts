/* eslint-disable @typescript-eslint/no-explicit-any */
import { CommandObserver } from '../../src/database/command-observer';
import { Queues } from '../../src/queues/jobs';
import { shopScope } from '../../src/common/tenancy';
import { PayoutEngine } from '../../src/payouts/payout-engine.service';
import { startApp, TestApp } from '../support/app';
import { createVendor, vendorToken } from '../support/catalog';
import { measured, Measured } from '../support/db-cost';
import { createMerchantKey, createShop, TestMerchantKey, TestShop } from '../support/factory';
import { payBatch } from '../support/transfers';
import { Receiver } from '../support/receiver';
import { deliver, eventually, shopifyOrder, shopifyProduct } from '../support/webhooks';

/**
 * Round-trip budgets (issue 11): what one request or job may cost the database, counted from the
 * driver's command monitoring. A list page ≤ 3 commands plus its count, ≤ limit + 1 documents; a
 * single-resource read ≤ 2; authentication ≤ 1; a 100-item line item update ≤ 12; a by-SKU
 * recalculation of M lines ≤ ⌈M/16⌉ + 6 (ingesting one order: ingestion-budget.e2e-spec.ts).
 */
describe('database round trips per request (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let mk: TestMerchantKey;
  let acme: { _id: string };
  let globex: { _id: string };
  let vendorTok: string;
  const orderIds: number[] = [];
  const transferIds: string[] = [];
  const table: Array<Record<string, unknown>> = [];

  const LIMIT = 3;

  function record(name: string, m: Measured): Measured {
    table.push({
      endpoint: name,
      status: m.res.status,
      commands: m.commands,
      documents: m.documents,
      auth: m.cost.authCommands,
      ...(process.env.ROUND_TRIPS_DEBUG ? { log: m.describe() } : {}),
    });
    return m;
  }

  async function get(path: string, token: string, name = `GET ${path}`): Promise<Measured> {
    const m = record(name, await measured(t, 'GET', path, undefined, { token }));
    expect(m.res.status).toBe(200);
    expect(m.cost.authCommands).toBeLessThanOrEqual(1);
    return m;
  }

  beforeAll(async () => {
    // A queue prefix of its own: this app's workers must run the jobs whose cost it reads (other
    // test files' apps share the run's prefix and would pick some up).
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-rt-${process.pid}`;
    // outbound events go to a loopback receiver
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    t = await startApp();
    shop = await createShop(t, 'rt');
    mk = await createMerchantKey(t, shop);
    acme = await createVendor(t, shop, 'RT Acme', { commissionType: 'percentage', commissionAmount: 10 });
    globex = await createVendor(t, shop, 'RT Globex', { commissionType: 'flat', commissionAmount: 1 });
    vendorTok = await vendorToken(t, shop, acme._id);
    for (let i = 0; i < 6; i++) {
      const o = shopifyOrder({
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        financialStatus: 'paid',
        lineItems: [
          { sku: 'RT-HOT', vendor: 'RT Acme', price: '10.00', quantity: 1 },
          { sku: `RT-${i}`, vendor: 'RT Globex', price: '5.00', quantity: 2 },
        ],
      });
      await deliver(t, shop, 'orders/create', o);
      orderIds.push(o.id);
    }
    for (let i = 0; i < 5; i++)
      await deliver(t, shop, 'products/create', shopifyProduct({ vendor: 'RT Acme' }));
    for (let i = 0; i < 5; i++) {
      const res = await t.api.post(
        '/v2/payout-adjustments',
        { vendorId: acme._id, amount: 5 + i, type: 'ADDITION' },
        { token: mk.token },
      );
      expect(res.status).toBe(201);
    }
    // Transfers (manual rail: nothing leaves the machine), as the payout engine will create them.
    for (let i = 0; i < 5; i++) transferIds.push((await payBatch(t, shop, acme._id, 10 + i))._id);
    for (let i = 0; i < 4; i++) {
      const res = await t.api.post(
        '/v1/users',
        { vendorId: acme._id, email: `rt${i}@example.com`, password: 'S3cure-portal-pass' },
        { token: shop.token },
      );
      expect(res.status).toBe(200);
    }
  });

  afterAll(async () => {
    // The per-endpoint table, for reading in the test log.
    console.table(table);
    await t.close();
  });

  describe('a list page: ≤ 3 commands plus its count, ≤ limit + 1 documents', () => {
    /** The page's own reads return at most limit + 1 rows (lookups of names etc. are not page rows). */
    function expectPageBudget(m: Measured, collection: string): void {
      atMost(m.commands, 4, `commands: ${m.describe()}`);
      atMost(m.documentsOf(collection), LIMIT + 1, `documents of ${collection}: ${m.describe()}`);
    }

    it.each([
      ['/v1/products', 'products'],
      ['/v1/fulfillments', 'line_items'],
      ['/v1/fulfillments?fulfillment=unfulfilled', 'line_items'],
      ['/v1/fulfillments?shipment=in_transit', 'line_items'],
      ['/v1/payouts', 'line_items'],
      ['/v1/payouts?status=unpaid', 'line_items'],
      ['/v1/payouts?type=sale', 'line_items'],
      ['/v1/payouts?status=unpaid&fulfillment=unfulfilled', 'line_items'],
      ['/v1/payouts/batches', 'payout_batches'],
      ['/v1/merchant-keys', 'merchant_keys'],
      ['/v1/payouts/transfers', 'transfers'],
      ['/v1/payouts/transfers?state=awaiting_reference&method=manual', 'transfers'],
    ])('v1 %s', async (path, collection) => {
      const sep = path.includes('?') ? '&' : '?';
      expectPageBudget(
        await get(`${path}${sep}limit=${LIMIT}`, shop.token, `GET ${path} (limit ${LIMIT})`),
        collection,
      );
    });

    it('v1 lists by vendor', async () => {
      for (const path of [`/v1/payouts?vendorId=${acme._id}`, `/v1/fulfillments?vendorId=${acme._id}`]) {
        const name = `GET ${path.replace(acme._id, '{vendorId}')}`;
        expectPageBudget(await get(`${path}&limit=${LIMIT}`, shop.token, name), 'line_items');
      }
      const transfers = `/v1/payouts/transfers?vendorId=${acme._id}`;
      const name = `GET ${transfers.replace(acme._id, '{vendorId}')}`;
      expectPageBudget(await get(`${transfers}&limit=${LIMIT}`, shop.token, name), 'transfers');
    });

    it.each([
      ['/v2/orders', 'shop', 'order_summaries'],
      ['/v2/vendors', 'merchant', 'vendors'],
      ['/v2/users', 'merchant', 'users'],
      ['/v2/orders', 'vendor', 'order_summaries'],
      ['/orders', 'vendor', 'order_summaries'],
      ['/v2/payouts', 'vendor', 'line_items'],
      ['/v2/payouts', 'shop', 'line_items'],
    ])('V2 %s (%s token), first page and the next', async (path, kind, collection) => {
      const token = kind === 'shop' ? shop.token : kind === 'merchant' ? mk.token : vendorTok;
      const first = await get(`${path}?first=${LIMIT}`, token, `GET ${path}?first=${LIMIT} (${kind})`);
      expectPageBudget(first, collection);
      const cursor = first.res.body.pageInfo?.endCursor ?? first.res.body.data?.pageInfo?.endCursor;
      expect(cursor).toBeTruthy();
      const after = `${path}?first=${LIMIT}&after=${encodeURIComponent(cursor)}`;
      expectPageBudget(await get(after, token, `GET ${path}?first=${LIMIT}&after=… (${kind})`), collection);
    });

    it('V2 payout adjustments (page/limit)', async () => {
      const m = await get(`/v2/payout-adjustments?limit=${LIMIT}`, mk.token, 'GET /v2/payout-adjustments');
      expectPageBudget(m, 'payout_adjustments');
    });

    it('outbound events: endpoints, events and the delivery log; one endpoint and one event ≤ 2', async () => {
      const r = await Receiver.start();
      try {
        const ids: string[] = [];
        for (let i = 0; i <= LIMIT; i++) {
          const res = await t.api.post('/v1/webhook-endpoints', { url: r.url }, { token: shop.token });
          expect(res.status).toBe(200);
          ids.push(res.body.id);
        }
        const pings: string[] = [];
        for (let i = 0; i <= LIMIT; i++)
          pings.push(
            (await t.api.post(`/v1/webhook-endpoints/${ids[0]}/test`, {}, { token: shop.token })).body
              .eventId,
          );
        await eventually(async () => expect(r.received.length).toBeGreaterThan(LIMIT));
        const lists: Array<[string, string, string]> = [
          ['/v1/webhook-endpoints', 'webhook_endpoints', 'GET /v1/webhook-endpoints'],
          ['/v1/events', 'events', 'GET /v1/events'],
          ['/v1/events?type=ping', 'events', 'GET /v1/events?type='],
          [`/v1/webhook-endpoints/${ids[0]}/deliveries`, 'event_deliveries', 'GET …/{id}/deliveries'],
          [
            `/v1/webhook-endpoints/${ids[0]}/deliveries?status=succeeded`,
            'event_deliveries',
            'GET …/deliveries?status=',
          ],
          [
            `/v1/webhook-endpoints/${ids[0]}/deliveries?eventType=ping`,
            'event_deliveries',
            'GET …/deliveries?eventType=',
          ],
        ];
        for (const [path, collection, name] of lists) {
          const sep = path.includes('?') ? '&' : '?';
          expectPageBudget(await get(`${path}${sep}limit=${LIMIT}`, shop.token, name), collection);
        }
        expect(
          (await get(`/v1/webhook-endpoints/${ids[1]}`, shop.token, 'GET /v1/webhook-endpoints/{id}'))
            .commands,
        ).toBeLessThanOrEqual(2);
        expect(
          (await get(`/v1/events/${pings[0]}`, shop.token, 'GET /v1/events/{id}')).commands,
        ).toBeLessThanOrEqual(2);
        expect(
          (await get(`/v2/webhook-endpoints?limit=${LIMIT}`, mk.token, 'GET /v2/webhook-endpoints')).commands,
        ).toBeLessThanOrEqual(4);
      } finally {
        await r.close();
      }
    });

    it('unpaged v1 lists (users, SKU and vendor commissions) stay within 3 commands', async () => {
      for (const path of ['/v1/users', '/v1/commissions/sku', '/v1/commissions/vendor']) {
        expect((await get(path, shop.token)).commands).toBeLessThanOrEqual(3);
      }
    });
  });

  describe('a single resource: ≤ 2 commands besides the credential check', () => {
    it('v1 reads', async () => {
      expect((await t.api.put('/v1/shop/profile', { fields: ['bio'] }, { token: shop.token })).status).toBe(
        200,
      );
      const paths = [
        `/v1/orders/${orderIds[0]}`,
        `/v1/orders/${orderIds[0]}?lineItems=true`,
        `/v1/vendors/${acme._id}`,
        `/v1/vendors/${acme._id}?users=true`,
        '/v1/shop/settings',
        '/v1/shop/profile',
        `/v1/payouts/transfers/${transferIds[0]}`,
        `/v1/vendors/${acme._id}/payout-method`,
        '/v1/shop/payout-providers',
      ];
      for (const path of paths) {
        const m = await get(
          path,
          shop.token,
          `GET ${path.replace(acme._id, '{id}').replace(String(orderIds[0]), '{id}').replace(transferIds[0], '{id}')}`,
        );
        expect(m.commands).toBeLessThanOrEqual(2);
      }
    });

    it('the vendor balance: its maintained document and the UNPAID adjustments, two reads in one round trip', async () => {
      // GET /v1/vendors/{id}/balance sends, in parallel, the vendor_balances document (paidToDate,
      // carriedForward, lastBatch, and the due / pending sums the tally keeps at write time; it
      // exists once the vendor has rows, and proves the vendor is the shop's) and one $group over
      // its UNPAID adjustments: never anything that grows with the vendor's history.
      const until = new Date().toISOString().slice(0, 10);
      // (Globex: Acme's lines stay unpaid for the recalculation budget below)
      await t.app.get(PayoutEngine).runNow(shopScope(shop.shopId), { vendorId: globex._id, until });
      const m = await get(`/v1/vendors/${globex._id}/balance`, shop.token, 'GET /v1/vendors/{id}/balance');
      expect(m.commands).toBeLessThanOrEqual(2);
      expect(m.res.body.paidToDate).toBeGreaterThan(0);
    });

    it('V2 reads', async () => {
      const users = (await t.api.get('/v2/users?first=1', { token: mk.token })).body.data.users;
      const adjustments = (await t.api.get('/v2/payout-adjustments', { token: mk.token })).body.data.items;
      for (const [path, name] of [
        [`/v2/vendors/${acme._id}`, 'GET /v2/vendors/{id}'],
        [`/v2/users/${users[0]._id}`, 'GET /v2/users/{id}'],
        [`/v2/payout-adjustments/${adjustments[0]._id}`, 'GET /v2/payout-adjustments/{id}'],
      ]) {
        expect((await get(path, mk.token, name)).commands).toBeLessThanOrEqual(2);
      }
      expect(
        (await get('/v2/payout-method', vendorTok, 'GET /v2/payout-method (vendor)')).commands,
      ).toBeLessThanOrEqual(2);
    });
  });

  it('authentication of a request costs at most one command, for every credential kind', async () => {
    for (const [token, kind] of [
      [shop.token, 'shop'],
      [mk.token, 'merchant'],
      [vendorTok, 'vendor'],
    ]) {
      const path =
        kind === 'shop'
          ? '/v1/shop/settings'
          : kind === 'merchant'
            ? '/v2/vendors?first=1'
            : '/orders?first=1';
      const m = await get(path, token, `auth: ${kind} token`);
      expect(m.cost.authCommands).toBeLessThanOrEqual(1);
    }
  });

  it('POST /v1/lineitems/update with 100 items: ≤ 12 commands, and ≤ 5 per vendor for its balance sums', async () => {
    const lines = (await t.api.get(`/v1/orders/${orderIds[0]}?lineItems=true`, { token: shop.token })).body
      .orders;
    const items = Array.from({ length: 100 }, (_, i) => ({
      orderId: lines[i % lines.length].orderId,
      lineItemId: lines[i % lines.length].lineItemId,
      fields: { deduction: (i % 7) + 0.5 },
    }));
    const m = record(
      'POST /v1/lineitems/update (100 items)',
      await measured(t, 'POST', '/v1/lineitems/update', { items }, { token: shop.token }),
    );
    expect(m.res.status).toBe(200);
    // the tally (a phase of its own): lease, changed rows (three seeks: the vendor's marked rows, its
    // unmarked ones, those counted at it), counting write, write-back, release per vendor
    const vendors = new Set(lines.map((l: { vendorId: string }) => l.vendorId)).size;
    const tally = m.cost.phases.tally?.commands ?? 0;
    expect(tally).toBeLessThanOrEqual(7 * vendors);
    expect(m.commands - tally).toBeLessThanOrEqual(12);
  });

  it('a by-SKU recalculation of M lines costs ≤ ⌈M/16⌉ + 6 commands', async () => {
    await t.api.put('/v1/shop/settings', { taxOnCommissionRate: 7 }, { token: shop.token });
    const res = await t.api.post(
      '/v1/lineitems/update',
      { bySku: 'RT-HOT', recalculate: true },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    const m = res.body.recalculateQueued as number;
    expect(m).toBe(orderIds.length);
    const observer = await eventually(async () => {
      const lines = (await t.api.get(`/v1/orders/${orderIds[0]}?lineItems=true`, { token: shop.token })).body
        .orders;
      const hot = lines.find((l: any) => l.sku === 'RT-HOT');
      if (hot.taxOnCommissions === 0) throw new Error('not recalculated yet');
      return hot;
    });
    expect(observer.taxOnCommissions).toBeGreaterThan(0);
    const jobs = jobCostsWithPrefix(t, `job:${Queues.Recalculation}:`);
    const total = jobs.reduce((n, c) => n + c, 0);
    if (process.env.ROUND_TRIPS_DEBUG)
      console.log(t.app.get(CommandObserver).operationsWithPrefix(`job:${Queues.Recalculation}:`));
    table.push({ endpoint: `by-SKU recalculation (${m} lines)`, commands: total });
    expect(total).toBeLessThanOrEqual(Math.ceil(m / 16) + 6);
  });
  describe('money reads (issue 17)', () => {
    let batchId: string;
    beforeAll(async () => {
      const res = await t.api.post(
        '/v1/payouts/batches',
        { vendorId: acme._id, until: '2026-01-31' },
        { token: shop.token },
      );
      expect(res.status).toBe(202);
      batchId = res.body.batchIds[0];
      await eventually(async () => {
        const b = await t.api.get(`/v1/payouts/batches/${batchId}`, { token: shop.token });
        expect(b.body.status).toBe('completed');
      });
    });

    // A batch read is the batch and its transfer (a point lookup on the unique {shopId, batchId}).
    it('a batch with its transfer: ≤ 2 commands', async () => {
      const m = await get(`/v1/payouts/batches/${batchId}`, shop.token, 'GET /v1/payouts/batches/{id}');
      expect(m.commands).toBeLessThanOrEqual(2);
    });

    // A statement is the batch plus what it settled: the batch, its rows, its adjustments, and the
    // transfer that paid it (issue 20: one point lookup more than before).
    it('a statement (JSON, v1 and V2): ≤ 4 commands', async () => {
      const v1 = await get(
        `/v1/payouts/batches/${batchId}/statement`,
        shop.token,
        'GET /v1/payouts/batches/{id}/statement',
      );
      expect(v1.commands).toBeLessThanOrEqual(4);
      const v2 = await get(
        `/v2/payouts/batches/${batchId}/statement`,
        vendorTok,
        'GET /v2/payouts/batches/{id}/statement (vendor)',
      );
      expect(v2.commands).toBeLessThanOrEqual(4);
    });

    // The maintained balance document and the UNPAID adjustments, side by side.
    it('GET /v2/balance (vendor)', async () => {
      const m = await get('/v2/balance', vendorTok, 'GET /v2/balance (vendor)');
      expect(m.commands).toBeLessThanOrEqual(2);
    });
  });
});

/** `value ≤ limit`, failing with what was sent (the budget tests' message). */
function atMost(value: number, limit: number, what: string): void {
  if (value > limit) throw new Error(`${value} > ${limit} ${what}`);
  expect(value).toBeLessThanOrEqual(limit);
}

/**
 * The commands of each job with this operation id prefix, besides the job resource's bookkeeping
 * and the outbound event of the part that settles it (`line_items.recalculated`, its own phase).
 */
function jobCostsWithPrefix(t: TestApp, prefix: string): number[] {
  return t.app
    .get(CommandObserver)
    .operationsWithPrefix(prefix)
    .map((c) => {
      expect(c.phases.job?.commands ?? 0).toBeLessThanOrEqual(3);
      // the job read, the event's insert, the endpoints read, the deliveries' insert, the fan-out mark,
      // the clearing of the job's pending-event marker (set in its settling write)
      expect(c.phases.events?.commands ?? 0).toBeLessThanOrEqual(6);
      // the balance sums of the vendors whose lines changed (one vendor per SKU here)
      expect(c.phases.tally?.commands ?? 0).toBeLessThanOrEqual(7);
      return (
        c.commands -
        (c.phases.job?.commands ?? 0) -
        (c.phases.events?.commands ?? 0) -
        (c.phases.tally?.commands ?? 0)
      );
    });
}
