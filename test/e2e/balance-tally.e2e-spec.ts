/* eslint-disable @typescript-eslint/no-explicit-any */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { VendorBalance } from '../../src/balances/vendor-balance.schema';
import { shopScope } from '../../src/common/tenancy';
import { LineItem } from '../../src/line-items/line-item.schema';
import { VendorTally } from '../../src/line-items/vendor-tally.service';
import { LineItemTallyRepository } from '../../src/line-items/line-item-tally.repository';
import { VendorBalancesRepository } from '../../src/balances/vendor-balances.repository';
import { Clock } from '../../src/common/clock/clock';
import { PayoutMaintenanceProcessor } from '../../src/payouts/payout-maintenance.processor';
import { startApp, TestApp } from '../support/app';
import { amount, c, day, payoutOf, refundScenario } from '../support/refund-scenario';
import { tallyOf } from '../../src/line-items/vendor-tally';
import { eventually } from '../support/webhooks';

// The maintained balance (issue 17 item 6, DESIGN §8): `due` and `pending` are sums kept at write
// time by the tally, read as one document. These tests open the crash windows by hand — a writer
// that died before its tally ran, a tally run that died between counting and writing back, runs
// racing each other, a row moved to another vendor — and check every figure to the cent against
// the BigInt oracle, then payouts:reconcile (which proves the sums against the rows).
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-balance-tally`;

describe('the maintained vendor balance (e2e)', () => {
  let t: TestApp;
  let lines: Model<LineItem>;
  let balances: Model<VendorBalance>;
  beforeAll(async () => {
    t = await startApp();
    lines = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
    balances = t.app.get<Model<VendorBalance>>(getModelToken(VendorBalance.name));
  });
  afterAll(() => t.close());

  /** A shop with one paid order per vendor line, the rows as stored. */
  async function seeded(prefix: string, vendorNames = ['alpha']) {
    const s = await refundScenario(t, prefix, vendorNames);
    const o = await s.order(
      vendorNames.flatMap((_, vendor) => [
        { vendor, price: '50.00', quantity: 2 },
        { vendor, price: '19.99', quantity: 3 },
      ]),
      day(-5),
    );
    await s.send('orders/create', o);
    await t.app.get(VendorTally).drained(); // the webhook path counts after its job
    const stored = await lines
      .find({ shopId: new Types.ObjectId(s.shop.shopId), orderId: o.id })
      .lean()
      .exec();
    return { ...s, stored, o };
  }
  const perVendor = payoutOf('50.00', 2, 10) + payoutOf('19.99', 3, 10); // 90.00 + 53.97

  /**
   * Counts the vendors' changed rows now. Another run may hold a vendor's lease (the app's own
   * tally sweeper, on its timer): `settle` then answers false and that run counts these rows before
   * it lets go, so this asks again until a run of its own finds nothing left.
   */
  async function settled(scope: ReturnType<typeof shopScope>, vendorIds: unknown[]): Promise<void> {
    for (let i = 0; i < 50; i++) {
      if (await t.app.get(VendorTally).settle(scope, vendorIds)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the vendor tally did not settle within 5 s');
  }

  /**
   * One sweep, then the balance it must lead to. The app's own sweeper (on its timer) may hold the
   * vendor's lease when this sweep reaches the vendor, and then that run counts the rows: the
   * balance is read again until it shows them (nothing here counts them itself).
   */
  async function sweptTo(s: { balance(): Promise<unknown> }, due: bigint): Promise<void> {
    await t.app.get(PayoutMaintenanceProcessor).sweepNow();
    await eventually(async () => expect(await s.balance()).toMatchObject({ due: amount(due) }), 5000);
  }

  it('answers from the sums kept at write time: each order, refund and batch moves them, to the cent', async () => {
    const s = await seeded('tally-flow');
    expect(await s.balance()).toMatchObject({ due: amount(perVendor), pending: 0 });
    // a row the tally counted carries its contribution and no change mark
    expect(s.stored.every((r: any) => r.tallyDirt === 0 && r.tally?.k === 'due')).toBe(true);
    await s.batch(day(-1));
    expect(await s.balance()).toMatchObject({ due: 0, paidToDate: amount(perVendor) });
    await s.reconcile();
  });

  it('the stored contribution of every row is tallyOf of the row (the write-back pipeline agrees with the function), float traps included', async () => {
    const s = await refundScenario(t, 'tally-expr');
    const shopId = new Types.ObjectId(s.shop.shopId);
    const traps = [0.07, 1.15, 4.35, -27.01, 1.005 - 0.005, 0.1 + 0.2, 1234567.89, -0.01, 0, 2.68];
    const o = await s.order(
      traps.map((_, i) => ({ price: `${i + 1}.00`, quantity: 1 })),
      day(-5),
    );
    await s.send('orders/create', o);
    await t.app.get(VendorTally).drained();
    const stored = await lines.find({ shopId, orderId: o.id }).lean().exec();
    expect(stored).toHaveLength(traps.length);
    let expected = 0n;
    for (const [i, r] of stored.entries()) {
      expected += c(traps[i].toFixed(2));
      await lines.updateOne({ shopId, _id: r._id }, { $set: { balance: traps[i] }, $inc: { tallyDirt: 1 } });
    }
    await settled(shopScope(s.shop.shopId), [s.vendors[0]._id]);
    const after = await lines.find({ shopId }).lean().exec();
    for (const r of after) expect({ ...r.tally, c: Number(r.tally!.c) }).toEqual(tallyOf(r as any));
    expect(await s.balance()).toMatchObject({ due: amount(expected) });
    await s.reconcile();
  });

  it('a writer that died before its tally: the change is counted by the sweeper, once', async () => {
    const s = await seeded('tally-dead-writer');
    const row = s.stored.find((r: any) => r.price === 50)!;
    // The write landed (with its mark) but the process died before counting it.
    await lines.updateOne(
      { shopId: new Types.ObjectId(s.shop.shopId), _id: row._id },
      { $set: { payout: 45, balance: 45 }, $inc: { tallyDirt: 1 } },
    );
    expect(await s.balance()).toMatchObject({ due: amount(perVendor) }); // not counted yet
    const expected = perVendor - payoutOf('50.00', 2, 10) + 4500n;
    await sweptTo(s, expected);
    await t.app.get(PayoutMaintenanceProcessor).sweepNow(); // again: nothing more
    expect(await s.balance()).toMatchObject({ due: amount(expected) });
    await s.reconcile();
  });

  it("counting is bookkeeping: a row's updatedAt stays what its last real change set (the tally's write-back and the sweeper's marks)", async () => {
    const s = await seeded('tally-updated-at');
    const shopId = new Types.ObjectId(s.shop.shopId);
    const vendorId = new Types.ObjectId(s.vendors[0]._id);
    const stamps = async () =>
      Object.fromEntries(
        (await lines.find({ shopId, vendorId }, { updatedAt: 1, tallyDirt: 1 }).lean().exec()).map(
          (r: any) => [String(r._id), { updatedAt: r.updatedAt.toISOString(), tallyDirt: r.tallyDirt }],
        ),
      );
    const before = await stamps();
    expect(Object.values(before).every((r: any) => r.tallyDirt === 0)).toBe(true);
    // Marks set underneath the model (no timestamp), as an uncounted change and an older release leave them.
    const [first, second] = s.stored.map((r: any) => r._id);
    await lines.collection.updateOne({ _id: first }, { $inc: { tallyDirt: 1 } });
    await lines.collection.updateOne({ _id: second }, { $unset: { tallyDirt: '' } });
    await new Promise((r) => setTimeout(r, 20)); // a timestamp written now would differ
    await t.app.get(PayoutMaintenanceProcessor).sweepNow(); // marks the unmarked row, counts both
    await settled(shopScope(s.shop.shopId), [vendorId]);
    expect(await stamps()).toEqual(before); // counted (tallyDirt 0 again), updatedAt unmoved
    expect(await s.balance()).toMatchObject({ due: amount(perVendor) });
    await s.reconcile();
  });

  it('a tally run that died after counting, before writing back: the next run finishes it without counting twice', async () => {
    const s = await seeded('tally-dead-run');
    const row = s.stored.find((r: any) => r.price === 50)!;
    const changed = await lines
      .findOneAndUpdate(
        { shopId: new Types.ObjectId(s.shop.shopId), _id: row._id },
        { $set: { payout: 45, balance: 45 }, $inc: { tallyDirt: 1 } },
        { new: true },
      )
      .lean()
      .exec();
    const vendorId = new Types.ObjectId(s.vendors[0]._id);
    // What a run that died right after its counting write leaves: the difference added to the sums,
    // the rows' new contributions pending, the lease held (lapsed), the row not written back.
    await balances.updateOne(
      { shopId: new Types.ObjectId(s.shop.shopId), vendorId },
      {
        $inc: { dueCents: -4500 },
        $set: {
          tallyLease: 'a-dead-run',
          tallyLeaseUntil: new Date(Date.now() - 1000),
          tallyPending: [
            { _id: row._id, tally: { v: vendorId, k: 'due', c: 4500 }, dirt: changed!.tallyDirt },
          ],
        },
      },
    );
    const expected = perVendor - 4500n;
    expect(await s.balance()).toMatchObject({ due: amount(expected) });
    await settled(shopScope(s.shop.shopId), [vendorId]);
    expect(await s.balance()).toMatchObject({ due: amount(expected) });
    const after = await lines
      .findOne({ shopId: new Types.ObjectId(s.shop.shopId), _id: row._id })
      .lean()
      .exec();
    expect(after).toMatchObject({ tallyDirt: 0, tally: { k: 'due', c: 4500 } });
    const doc = await balances
      .findOne({ shopId: new Types.ObjectId(s.shop.shopId), vendorId })
      .lean()
      .exec();
    expect(doc).toMatchObject({ tallyLease: null });
    expect(doc!.tallyPending).toBeUndefined();
    await s.reconcile();
  });

  it('a tally run that died after its write-back, before letting go: a row that changed meanwhile is still counted (its mark went 1 → 0 → 1)', async () => {
    const s = await seeded('tally-dead-after-write');
    const shopId = new Types.ObjectId(s.shop.shopId);
    const vendorId = new Types.ObjectId(s.vendors[0]._id);
    const row = s.stored.find((r: any) => r.price === 50)!;
    // The seeding run counted the row at mark 1 and wrote it back (mark 0): what a run that died
    // right after its write-back leaves is that, plus its pending list and its (lapsed) lease.
    expect(row).toMatchObject({ tallyDirt: 0, tally: { k: 'due', c: 9000 } });
    await balances.updateOne(
      { shopId, vendorId },
      {
        $set: {
          tallyLease: 'a-dead-run',
          tallyLeaseUntil: new Date(Date.now() - 1000),
          tallyPending: [{ _id: row._id, tally: row.tally, dirt: 1 }],
        },
      },
    );
    // Then a batch pays the row: the payment's mark takes it from 0 back to 1, the mark the dead
    // run had read.
    await lines.updateOne(
      { shopId, _id: row._id },
      { $set: { frozen: true, paid: 90, balance: 0, paidAt: new Date() }, $inc: { tallyDirt: 1 } },
    );
    await settled(shopScope(s.shop.shopId), [vendorId]);
    // the paid row left `due` (the payment is counted), and nothing is left marked or pending
    expect(await s.balance()).toMatchObject({ due: amount(perVendor - payoutOf('50.00', 2, 10)) });
    const after = await lines.findOne({ shopId, _id: row._id }).lean().exec();
    expect(after).toMatchObject({ tallyDirt: 0, tally: { k: null } });
    const doc = await balances.findOne({ shopId, vendorId }).lean().exec();
    expect(doc).toMatchObject({ tallyLease: null });
    expect(doc!.tallyPending).toBeUndefined();
  });

  it('runs racing on one vendor (callers in three processes and the sweeper) count every change once', async () => {
    const s = await seeded('tally-race');
    const vendorId = new Types.ObjectId(s.vendors[0]._id);
    let expected = 0n;
    // 20 more lines in one order, then each changed behind the tally's back (marked, not counted)
    const o = await s.order(
      Array.from({ length: 20 }, (_, i) => ({ price: `${10 + i}.01`, quantity: 1 })),
      day(-4),
    );
    await s.send('orders/create', o);
    await t.app.get(VendorTally).drained();
    const rows = await lines
      .find({ shopId: new Types.ObjectId(s.shop.shopId), orderId: o.id })
      .lean()
      .exec();
    for (const [i, r] of rows.entries()) {
      const cents = BigInt(100 * (i + 1) + 7);
      expected += cents;
      await lines.updateOne(
        { shopId: new Types.ObjectId(s.shop.shopId), _id: r._id },
        { $set: { balance: Number(cents) / 100 }, $inc: { tallyDirt: 1 } },
      );
    }
    const scope = shopScope(s.shop.shopId);
    // Three instances stand for three processes (each coalesces its own callers; across them the
    // lease and its asks decide), two callers each, and the sweeper.
    const processes = Array.from(
      { length: 3 },
      () =>
        new VendorTally(
          t.app.get(LineItemTallyRepository),
          t.app.get(VendorBalancesRepository),
          t.app.get(Clock),
        ),
    );
    await Promise.all([
      ...processes.flatMap((p) => [p.settle(scope, [vendorId]), p.settle(scope, [vendorId])]),
      t.app.get(PayoutMaintenanceProcessor).sweepNow(),
    ]);
    expect(await s.balance()).toMatchObject({ due: amount(perVendor + expected) });
    await s.reconcile();
  });

  it("a row moved to another vendor leaves the first vendor's sums and joins the other's", async () => {
    const s = await seeded('tally-move', ['alpha', 'beta']);
    const row = s.stored.find((r: any) => String(r.vendorId) === s.vendors[0]._id && r.price === 50)!;
    const beta = new Types.ObjectId(s.vendors[1]._id);
    await lines.updateOne(
      { shopId: new Types.ObjectId(s.shop.shopId), _id: row._id },
      { $set: { vendorId: beta, vendorName: s.vendors[1].vendorName }, $inc: { tallyDirt: 1 } },
    );
    await settled(shopScope(s.shop.shopId), [s.vendors[0]._id]);
    const moved = payoutOf('50.00', 2, 10);
    expect(await s.balance(0)).toMatchObject({ due: amount(perVendor - moved) });
    expect(await s.balance(1)).toMatchObject({ due: amount(perVendor + moved) });
    await s.reconcile();
  });

  it('rows and a balance document stored before the tally existed are counted on first look, and a drift is a reconcile difference', async () => {
    const s = await seeded('tally-legacy');
    const shopId = new Types.ObjectId(s.shop.shopId);
    const vendorId = new Types.ObjectId(s.vendors[0]._id);
    // as an older release left them: rows without a mark or a contribution, no sums, no tally fields
    await lines.updateMany({ shopId, vendorId }, { $unset: { tallyDirt: '', tally: '' } });
    await balances.updateOne(
      { shopId, vendorId },
      { $unset: { dueCents: '', pendingCents: '', tallyAsks: '', tallyLease: '', tallyLeaseUntil: '' } },
    );
    await sweptTo(s, perVendor);
    // …and a run on such a document finishes at once (it counted everything, nothing asked)
    expect(await t.app.get(VendorTally).settle(shopScope(s.shop.shopId), [vendorId])).toBe(true);
    await s.reconcile();
    // a sum that drifted from its rows (no mark explains it) is named by reconcile, never hidden
    await balances.updateOne(
      { shopId: new Types.ObjectId(s.shop.shopId), vendorId: new Types.ObjectId(s.vendors[0]._id) },
      { $inc: { dueCents: 1 } },
    );
    const proof = await s.reconcileRaw();
    expect(proof.ok).toBe(false);
    expect(proof.vendors[0].differences.join()).toMatch(/maintained due/);
  });
});
