import { VendorTally } from '../../src/line-items/vendor-tally.service';
import { PayoutMaintenanceProcessor } from '../../src/payouts/payout-maintenance.processor';
import { appConfig, databaseConfig } from '../../src/config/configuration';
import { CommandObserver } from '../../src/database/command-observer';
import { jobOperationId, Queues } from '../../src/queues/jobs';
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import { shopifyRefund } from '../support/refunds';
import { nextVersion, sendWebhook, shopifyOrder, waitForWebhooks } from '../support/webhooks';

describe('ingestion round trips (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let observer: CommandObserver;

  beforeAll(async () => {
    // Commands observed per job, and queues of its own so this app processes its deliveries.
    const db = { ...databaseConfig(), captureCommands: true };
    const app = { ...appConfig(), queuePrefix: `budget-${process.pid}-${Date.now()}` };
    t = await startApp((b) =>
      b.overrideProvider(databaseConfig.KEY).useValue(db).overrideProvider(appConfig.KEY).useValue(app),
    );
    observer = t.app.get(CommandObserver);
    shop = await createShop(t, 'budget');
    await createVendor(t, shop, 'Budget Vendor', { commissionType: 'percentage', commissionAmount: 10 });
  });
  afterAll(() => t.close());

  /** The database commands of one delivery's job: the inbox's bookkeeping, and the rest (the order). */
  async function ingest(lines: number) {
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: Array.from({ length: lines }, (_, i) => ({
        sku: `B-${i}`,
        vendor: 'budget vendor',
        price: '10.00',
        quantity: 1,
      })),
    });
    return costOf('orders/create', order);
  }

  async function costOf(topic: string, payload: Record<string, unknown>) {
    const res = await sendWebhook(t, shop, topic, payload);
    await waitForWebhooks(t, shop, [res.webhookId]);
    await t.app.get(VendorTally).drained(); // the tally runs after the job (its commands are the job's)
    const cost = observer.costOf(jobOperationId(Queues.Ingestion, res.body.deliveryId));
    const inbox = cost.phases.inbox?.commands ?? 0;
    // order.received (issue 19) is a phase of its own: its insert. Its endpoints are read with the
    // pricing records, in the same command (LineItemPricing.loadWith). With no endpoint subscribed
    // there is no fan-out to mark, and the rows' pending-event marker (set in their insert) is
    // cleared by the events sweeper in bulk, not by the job.
    const events = cost.phases.events?.commands ?? 0;
    // The vendor's balance sums (issue 17) too: its lease, the changed rows (three seeks in parallel:
    // marked, unmarked, counted at it), the counting write, the write-back, the release — per
    // vendor, whatever N.
    const tally = cost.phases.tally?.commands ?? 0;
    return { order: cost.commands - inbox - events - tally, inbox, events, tally, log: cost.log };
  }

  it('an order of N lines costs at most 6 commands whatever N; the inbox adds its claim and its mark', async () => {
    // The tally sweeper counts the database's changed rows at processor start (here: other suites'
    // too); a run of the job that it asks to look again costs one more step. Its sweep done and one
    // order ingested first, the measured jobs' runs are their own.
    await t.app.get(PayoutMaintenanceProcessor).sweepNow();
    await ingest(1);
    const one = await ingest(1);
    const many = await ingest(40);
    // the budget is 6; one combined read (shop, vendors, SKU records, endpoints) and the three
    // inserts (the order, its rows, its summaries) take 4
    expect(one.order).toBeLessThanOrEqual(4);
    expect(many.order).toBe(one.order);
    expect(one.log.filter((c) => c.phase === undefined).map((c) => `${c.command} ${c.collection}`)).toEqual([
      'insert orders',
      'aggregate shops',
      'insert line_items',
      'insert order_summaries',
    ]);
    expect(one.inbox).toBe(2);
    expect(many.inbox).toBe(2);
    expect(one.events).toBe(1);
    expect(many.events).toBe(one.events);
    expect(one.tally).toBeGreaterThan(0);
    expect(one.tally).toBeLessThanOrEqual(7);
    // the same bound whatever N (not the same count: a run that finds the lease taken — the sweeper
    // counting at processor start — asks the holder instead of counting itself)
    expect(many.tally).toBeGreaterThan(0);
    expect(many.tally).toBeLessThanOrEqual(7);
  });

  it('an updated order (a refund row recut, a vendor changed) sends its commands in this order', async () => {
    const order = shopifyOrder({
      financialStatus: 'paid',
      lineItems: [
        { sku: 'U-0', vendor: 'budget vendor', price: '10.00', quantity: 2 },
        { sku: 'U-1', vendor: 'budget vendor', price: '20.00', quantity: 1 },
      ],
    });
    await costOf('orders/create', order);
    const lineId = order.line_items[0].id;
    await costOf(
      'refunds/create',
      shopifyRefund({ orderId: order.id, lines: [{ lineItemId: lineId, quantity: 1 }] }),
    );
    const updated = nextVersion(order);
    updated.line_items = [
      { ...order.line_items[0], price: '12.00' },
      { ...order.line_items[1], vendor: 'Nobody Yet' },
    ];
    const cost = await costOf('orders/updated', updated);
    // the order's version, its rows, one combined read, the rows' guarded writes (sale lines and the
    // recut refund row together), its summaries; no order.received for an order already known
    expect(cost.log.filter((c) => c.phase === undefined).map((c) => `${c.command} ${c.collection}`)).toEqual([
      'insert orders',
      'update orders',
      'find line_items',
      'aggregate shops',
      'update line_items',
      'update order_summaries',
      'delete order_summaries',
    ]);
    expect(cost.events).toBe(0);
    expect(cost.inbox).toBe(2);
  });
});
