import { RulesCache } from '../../src/commissions/rules-cache';
import { appConfig, databaseConfig } from '../../src/config/configuration';
import { CommandObserver } from '../../src/database/command-observer';
import { VendorTally } from '../../src/line-items/vendor-tally.service';
import { jobOperationId, Queues } from '../../src/queues/jobs';
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { cents, divHalfUp, fmt } from '../support/cents';
import { createShop, TestShop } from '../support/factory';
import { platformId, sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

/*
 * The pricing read's rules cache (rules-cache.ts) across processes: two apps on one store, each
 * with queues of its own (each ingests the deliveries it receives), stand for two processes. A rule
 * written through app A is used by app B's next ingestion, though B had cached the product without
 * it; a cache hit costs no command; a shop's rules never answer for another shop's lines.
 */
describe('commission rules cache across processes (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let shop: TestShop;
  let other: TestShop;
  let vendorId: string;
  const PRODUCT = platformId();
  const PRICE = '33.33';

  const start = (name: string) => {
    const db = { ...databaseConfig(), captureCommands: true };
    const app = { ...appConfig(), queuePrefix: `rules-cache-${name}-${process.pid}-${Date.now()}` };
    return startApp((m) =>
      m.overrideProvider(databaseConfig.KEY).useValue(db).overrideProvider(appConfig.KEY).useValue(app),
    );
  };

  /** One order of one line of PRODUCT ingested by `t`: the line, and the job's commands besides its bookkeeping. */
  async function ingest(t: TestApp, s: TestShop = shop) {
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [{ sku: 'RC-1', vendor: 'Cache Vendor', price: PRICE, quantity: 1, productId: PRODUCT }],
    });
    const res = await sendWebhook(t, s, 'orders/create', order);
    expect(res.status).toBe(200);
    await waitForWebhooks(t, s, [res.webhookId]);
    await t.app.get(VendorTally).drained();
    const cost = t.app.get(CommandObserver).costOf(jobOperationId(Queues.Ingestion, res.body.deliveryId));
    const own = cost.log.filter((c) => c.phase === undefined).map((c) => `${c.command} ${c.collection}`);
    const got = await t.api.get(`/v1/orders/${order.id}?lineItems=true`, { token: s.token });
    expect(got.status).toBe(200);
    return { line: got.body.orders[0], commands: own };
  }

  /** The oracle: a percentage of the line's sales, half-up to the cent. */
  const at = (pct: bigint) => Number(fmt(divHalfUp(cents(PRICE) * pct, 100n)));

  beforeAll(async () => {
    a = await start('a');
    b = await start('b');
    shop = await createShop(a, 'rules-cache');
    other = await createShop(a, 'rules-cache-other');
    const terms = { commissionType: 'percentage' as const, commissionAmount: 10 };
    vendorId = (await createVendor(a, shop, 'Cache Vendor', terms))._id;
    await createVendor(a, other, 'Cache Vendor', terms);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("uses a rule written through another process at B's next ingestion; a hit costs no command", async () => {
    // B prices the product once without a rule (and caches that), then again from its cache
    const first = await ingest(b);
    expect([first.line.commission, first.line.commissionPlan]).toEqual([at(10n), 'vendor:percentage:10']);
    expect(first.commands).toContain('find commission_rules');
    const hit = await ingest(b);
    expect(hit.line.commission).toBe(at(10n));
    expect(hit.commands).toEqual([
      'insert orders',
      'aggregate shops',
      'insert line_items',
      'insert order_summaries',
    ]);

    // A writes a product rule; B's next order of the product is priced by it, to the cent
    const created = await a.api.post(
      '/v1/commissions/rules',
      { level: 'product', productId: String(PRODUCT), commissionType: 'percentage', commissionAmount: 25 },
      { token: shop.token },
    );
    expect(created.status).toBe(201);
    const after = await ingest(b);
    expect([after.line.commission, after.line.commissionPlan]).toEqual([at(25n), 'product:percentage:25']);
    expect(after.line.commissionRule).toEqual({ level: 'product', id: created.body._id });
    expect(after.commands.filter((c) => c === 'find commission_rules')).toHaveLength(1);
    const again = await ingest(b);
    expect(again.line.commission).toBe(at(25n));
    expect(again.commands).not.toContain('find commission_rules');

    // B's preview sees it too; A's replace and delete reach B's next ingestion the same way
    const preview = await b.api.post(
      '/v1/commissions/preview',
      { vendorId, productId: String(PRODUCT), price: 33.33, quantity: 1 },
      { token: shop.token },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.figures.commission).toBe(at(25n));
    const replaced = await a.api.put(
      `/v1/commissions/rules/${created.body._id}`,
      { level: 'product', productId: String(PRODUCT), commissionType: 'percentage', commissionAmount: 30 },
      { token: shop.token },
    );
    expect(replaced.status).toBe(200);
    expect((await ingest(b)).line.commission).toBe(at(30n));
    const deleted = await a.api.delete(`/v1/commissions/rules/${created.body._id}`, { token: shop.token });
    expect(deleted.status).toBe(200);
    expect((await ingest(b)).line).toMatchObject({ commission: at(10n), commissionRule: null });
  });

  it("never prices a line by another shop's rule of the same product id", async () => {
    const res = await a.api.post(
      '/v1/commissions/rules',
      { level: 'product', productId: String(PRODUCT), commissionType: 'percentage', commissionAmount: 40 },
      { token: other.token },
    );
    expect(res.status).toBe(201);
    expect((await ingest(b, other)).line.commission).toBe(at(40n));
    expect((await ingest(b)).line.commission).toBe(at(10n));
    expect((await ingest(b, other)).line.commission).toBe(at(40n));
  });

  it('holds at most its bound of rules and keys', () => {
    const cache = b.app.get(RulesCache);
    expect(cache.shopCount).toBeGreaterThanOrEqual(1);
    expect(cache.weight).toBeLessThanOrEqual(20_000);
  });
});
