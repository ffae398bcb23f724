'use strict';
// (k) payouts on a schedule (issue 33, DESIGN §15): two API processes and a worker tick the
// scheduler every second on one store and Redis; a shop's weekly due date has come; the process
// holding the run is killed with kill -9 while the run is creating its batches, and restarted.
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { json, shop, order, deliverUntilAcked, pool, until, sleep, log, freePort } = require('./harness');

const VENDORS = 12;
const ORDERS_PER_VENDOR = 4;
const LINES_PER_ORDER = 3;
const COMMISSION = 10n; // percent
const DAY = 24 * 3600 * 1000;
// Each process its own lease length, so the run's lease tells which process holds it: the
// heartbeat renews every third of it, so `leaseUntil − now` lies in (⅔·lease, lease] of its holder.
const LEASE = { 'api-a': 3, 'api-b': 6, worker: 12 };

const isoWeekday = (ms) => ((new Date(ms).getUTCDay() + 6) % 7) + 1;
/** Exact cents of a decimal string or number (BigInt), for the oracle. */
const cents = (x) => {
  const [i, f = ''] = String(typeof x === 'number' ? x.toFixed(2) : x).split('.');
  const sign = i.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(i.replace('-', '')) * 100n + BigInt((f + '00').slice(0, 2)));
};
const fmt = (c) =>
  `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;

function holderOf(run) {
  if (!run?.leaseUntil) return null;
  const left = (new Date(run.leaseUntil).getTime() - Date.now()) / 1000;
  return Object.entries(LEASE).find(([, s]) => left > (2 * s) / 3 - 0.5 && left <= s + 0.5)?.[0] ?? null;
}

async function scheduleScenario(stack, report) {
  const name = `sched${randomBytes(2).toString('hex')}`;
  const env = (who) => ({ SWEEP_EVERY_SECONDS: '1', PAYOUT_LEASE_SECONDS: String(LEASE[who]) });
  // 1. Set-up through one API: the shop, its vendors, their orders, the weekly schedule.
  const setup = await stack.api(name, env('api-a'));
  const s = await shop(stack, name, setup.base);
  const h = { 'x-access-token': s.token };
  const vendors = [];
  for (let i = 0; i < VENDORS; i++) {
    const vendorName = `Sched ${String(i).padStart(2, '0')}`;
    const v = await json(
      'POST',
      `${setup.base}/v1/vendors`,
      { vendorName, commissionType: 'percentage', commissionAmount: Number(COMMISSION) },
      h,
    );
    if (v.status !== 200) throw new Error(`vendor: ${v.status} ${JSON.stringify(v.body)}`);
    const id = v.body.vendor?._id ?? v.body._id;
    const m = await json('PUT', `${setup.base}/v1/vendors/${id}/payout-method`, { type: 'manual' }, h);
    if (m.status !== 200) throw new Error(`method: ${m.status} ${JSON.stringify(m.body)}`);
    vendors.push({ id, vendorName, role: i === 0 ? 'paused' : i === 1 ? 'belowMinimum' : 'paid' });
  }
  const settings = async (v, body) => {
    const r = await json('PUT', `${setup.base}/v1/vendors/${v.id}/payout-settings`, body, h);
    if (r.status !== 200) throw new Error(`payout-settings: ${r.status} ${JSON.stringify(r.body)}`);
  };
  await settings(vendors[0], { paused: true });
  await settings(vendors[1], { paused: false, minimumPayout: 100000 });
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  const dueDate = new Date(today).toISOString().slice(0, 10);
  const put = await json(
    'PUT',
    `${setup.base}/v1/shop/settings`,
    { payoutSchedule: { frequency: 'weekly', dayOfWeek: isoWeekday(today), holdDays: 0, minimumPayout: 1 } },
    h,
  );
  if (put.status !== 200) throw new Error(`settings: ${put.status} ${JSON.stringify(put.body)}`);
  // the orders (created yesterday: inside the cut-off of today's run); the oracle from what was sent
  const owed = new Map();
  const orders = vendors.flatMap((v) =>
    Array.from({ length: ORDERS_PER_VENDOR }, () => {
      const o = order(LINES_PER_ORDER, v.vendorName);
      const gross = o.line_items.reduce((x, l) => x + cents(l.price) * BigInt(l.quantity), 0n);
      owed.set(v.id, (owed.get(v.id) ?? 0n) + (gross * (100n - COMMISSION)) / 100n);
      return o;
    }),
  );
  const deadline = Date.now() + 120_000;
  await pool(
    6,
    orders.map((o) => () => deliverUntilAcked(setup.base, s, 'orders/create', o, deadline)),
  );
  const conn = await stack.db(name);
  const db = conn.db;
  const sid = new mongoose.Types.ObjectId(s.shopId);
  const lineCount = orders.length * LINES_PER_ORDER;
  await until(
    'every line item ingested',
    async () => (await db.collection('line_items').countDocuments({ shopId: sid })) === lineCount,
    120_000,
    500,
  );
  // 2. The due date comes: the schedule reads as set a week ago, its next due date today (what
  // the shop would hold had it been set last week; the apps keep their real clock).
  stack.children.delete(setup.child);
  setup.child.kill('SIGKILL');
  await sleep(500);
  const set = await db.collection('shops').updateOne(
    { _id: sid },
    {
      $set: {
        'payoutSchedule.setAt': new Date(now - 8 * DAY),
        'payoutSchedule.nextDueAt': new Date(today),
      },
    },
  );
  if (set.modifiedCount !== 1) throw new Error('could not move the schedule back a week');
  // 3. Both APIs start at once (each ticks at start and every second after; the first to claim
  // the run holds it), the worker once they are up. Meanwhile: 4. kill -9 the run's holder while
  // it plans (the paused vendor's skip and two batches recorded at least); a run planned before a poll saw it is killed while
  // it settles, still mid-run, and the figure says so.
  const started = Date.now();
  const procs = {};
  const runs = db.collection('payout_runs');
  let atKill = null;
  let holder = null;
  let phase = null;
  const watching = until(
    'the run is under way',
    async () => {
      const run = await runs.findOne({ shopId: sid, dueDate });
      if (run?.state !== 'running' || (!run.planned && run.vendors.length < 3)) return false;
      holder = holderOf(run);
      if (!holder || !procs[holder]) return false;
      atKill = run;
      phase = run.planned ? 'settling' : 'planning';
      return true;
    },
    60_000,
    5,
  );
  /** Starts an app; its child process is known at once (spawned before the first await). */
  const launch = (who, start) => {
    const before = new Set(stack.children);
    const ready = start();
    procs[who] = [...stack.children].find((c) => !before.has(c));
    return ready;
  };
  let killedAt = null;
  let batchesAtKill = null;
  const killed = watching.then(async () => {
    stack.children.delete(procs[holder]);
    procs[holder].kill('SIGKILL');
    killedAt = Date.now();
    batchesAtKill = await db.collection('payout_batches').countDocuments({ shopId: sid });
    log(
      `kill -9 ${holder} (the run's holder) mid-run, ${phase}: ${atKill.vendors.length} vendors ` +
        `recorded, ${batchesAtKill} batches, ${((killedAt - started) / 1000).toFixed(1)} s after start`,
    );
  });
  // a process killed before it answered its health check: its start fails, as it should
  const ready = (p) => p.catch((err) => (killedAt ? null : Promise.reject(err)));
  const ports = { 'api-a': setup.port, 'api-b': String(await freePort()) };
  await Promise.all(
    ['api-a', 'api-b'].map((who) =>
      ready(launch(who, () => stack.api(name, { ...env(who), PORT: ports[who] }))),
    ),
  );
  await ready(launch('worker', () => stack.worker(name, env('worker'))));
  await killed;
  await sleep(1000);
  if (holder === 'worker')
    await stack.worker(`${name}-2`, {
      ...env('worker'),
      MONGODB_URI: stack.mongoUri(`faults_${name}`),
      QUEUE_PREFIX: `faults-${name}`,
    });
  else await stack.api(name, { ...env(holder), PORT: ports[holder] });
  // 5. the run completes by itself
  let run;
  const completeMs = await until(
    'the run completes',
    async () => {
      run = await runs.findOne({ shopId: sid, dueDate });
      return run?.state === 'completed' && !run.eventPendingAt;
    },
    150_000,
    500,
  ).catch(() => null);
  const figures = await tally(db, sid, dueDate, vendors, owed);
  await conn.close();
  // the vendors' maintained balances count row changes behind the writes (the balances sweeper
  // counts what a killed process left uncounted): reconcile is asked until ok, bounded
  let reconciled = false;
  let lastProof = null;
  const reconcileMs = await until(
    'payouts:reconcile ok',
    () => {
      try {
        lastProof = stack.cli(name, 'payouts:reconcile', '--domain', s.shopDomain);
      } catch (err) {
        // exit 1: its JSON (the first line of the message after the command) names the differences
        const text = String(err.message ?? err);
        try {
          lastProof = JSON.parse(text.slice(text.indexOf('{')).split('\n')[0]);
        } catch {
          lastProof = text.slice(0, 2000);
        }
      }
      return (reconciled = lastProof?.ok === true);
    },
    60_000,
    2000,
  ).catch(() => null);
  if (!reconciled)
    log(
      `the last payouts:reconcile: ${JSON.stringify(
        typeof lastProof === 'object' && lastProof
          ? { vendors: lastProof.vendors?.filter((v) => !v.ok), sellerTax: lastProof.sellerTax }
          : lastProof,
      )}`,
    );
  const ok =
    completeMs !== null &&
    figures.lost === 0 &&
    figures.duplicated === 0 &&
    figures.paidTwice === 0 &&
    figures.missingBatches === 0 &&
    figures.sumPaid === figures.sumOwed &&
    figures.runTotalPaid === figures.sumOwed &&
    figures.runs === 1 &&
    figures.completedEvents === 1 &&
    figures.belowMinimum === 'below_minimum' &&
    figures.belowMinimumRowsDue === LINES_PER_ORDER * ORDERS_PER_VENDOR &&
    figures.pausedBatches === 0 &&
    figures.pausedSkip === 'paused' &&
    figures.claims >= 2 &&
    reconciled;
  report(
    '(k) process kill -9 mid-scheduled-run',
    {
      lost: figures.lost,
      duplicated: figures.duplicated,
      paidTwice: figures.paidTwice,
      killed: holder,
      phase,
      vendorsAtKill: `${atKill.vendors.length}/${VENDORS}`,
      batchesAtKill,
      completedAfterKillS: completeMs === null ? 'timeout' : ((Date.now() - killedAt) / 1000).toFixed(1),
      runs: figures.runs,
      claims: figures.claims,
      batches: figures.batches,
      sumOwed: fmt(figures.sumOwed),
      sumPaid: fmt(figures.sumPaid),
      runTotalPaid: fmt(figures.runTotalPaid),
      belowMinimum: `${figures.belowMinimum} rowsDue ${figures.belowMinimumRowsDue}`,
      paused: `${figures.pausedSkip} batches ${figures.pausedBatches}`,
      completedEvents: figures.completedEvents,
      reconciled,
      reconciledAfterS: reconcileMs === null ? 'timeout' : (reconcileMs / 1000).toFixed(1),
    },
    ok,
  );
}

/** The figures, from the database (cents as BigInt). */
async function tally(db, sid, dueDate, vendors, owed) {
  const batches = await db.collection('payout_batches').find({ shopId: sid }).toArray();
  const rows = await db.collection('line_items').find({ shopId: sid }).toArray();
  const runDocs = await db.collection('payout_runs').find({ shopId: sid }).toArray();
  const run = runDocs.find((r) => r.dueDate === dueDate);
  const perVendor = (id) => batches.filter((x) => String(x.vendorId) === id && x.periodEnd === dueDate);
  const rowsOf = (id) => rows.filter((r) => String(r.vendorId) === id);
  let lost = 0;
  let duplicated = Math.max(0, runDocs.length - 1);
  let paidTwice = 0;
  let missingBatches = 0;
  let sumPaid = 0n;
  let sumOwed = 0n;
  let sumPaidRows = 0n;
  for (const v of vendors) {
    const mine = perVendor(v.id);
    if (v.role === 'paused') continue;
    if (mine.length === 0) missingBatches++;
    duplicated += Math.max(0, mine.length - 1);
    if (v.role !== 'paid') continue;
    sumOwed += owed.get(v.id);
    for (const batch of mine) if (batch.status === 'completed') sumPaid += cents(batch.total);
    for (const r of rowsOf(v.id)) {
      if (r.balance !== 0 || r.batchId === null) lost++;
      if (r.paid > r.payout + 0.001 || (mine[0] && r.batchId !== String(mine[0]._id))) paidTwice++;
      sumPaidRows += cents(r.batchPaidAmount ?? 0);
    }
  }
  const [paused, low] = vendors;
  const lowBatch = perVendor(low.id)[0];
  const lowRows = rowsOf(low.id);
  const events = await db.collection('events').countDocuments({ shopId: sid, type: 'payout_run.completed' });
  return {
    lost,
    duplicated,
    paidTwice: paidTwice + (sumPaidRows === sumPaid ? 0 : 1),
    missingBatches,
    sumOwed,
    sumPaid,
    runTotalPaid: cents(run?.totals?.paid ?? 0),
    runs: runDocs.length,
    claims: run?.claims ?? 0,
    batches: batches.length,
    belowMinimum: lowBatch?.status,
    belowMinimumRowsDue: lowRows.filter((r) => r.balance !== 0 && r.paid === 0 && !r.frozen).length,
    pausedBatches: batches.filter((x) => String(x.vendorId) === paused.id).length,
    pausedSkip: run?.vendors.find((x) => String(x.vendorId) === paused.id)?.skipped ?? null,
    completedEvents: events,
  };
}

module.exports = { scheduleScenario };
