#!/usr/bin/env node
'use strict';
// The fault tests (issue 12), run by scripts/test.sh after `nest build`:
//   node test/faults/run.js [redis mongo payout worker events events-money rails rails-sent
//   rails-sent-legacy numbering documents schedule]   (default: all twelve)
// FAULTS_KEEP=1 keeps the data directory and logs, FAULTS_HOLD=<s> waits before stopping the
// services (inspection), FAULTS_LOG_LEVEL sets the apps' log level, FAULTS_REPORT=<file> writes the
// figures as JSON.
// Each scenario starts what it needs on its own ports (scripts/services.sh in a throw-away data
// directory, the built API / worker as child processes), kills something with kill -9 at the worst
// moment, and checks from the database that nothing acknowledged was lost or duplicated. Each is
// bounded by a hard timeout; the figures are printed as `lost=0 duplicated=0 …` lines.
const { randomBytes } = require('node:crypto');
const { Stack, json, shop, order, deliverUntilAcked, pool, until, ledger, sleep, log } = require('./harness');
const mongoose = require('mongoose');
const { eventsScenario } = require('./events');
const { moneyEventsScenario } = require('./events-money');
const { railsScenario } = require('./rails');
const { railsSentScenario } = require('./rails-sent');
const { numberingScenario } = require('./numbering');
const { documentsScenario } = require('./documents');
const { scheduleScenario } = require('./schedule');

const LIMIT_MS = {
  redis: 240_000,
  mongo: 240_000,
  payout: 300_000,
  worker: 240_000,
  events: 240_000,
  'events-money': 300_000,
  rails: 240_000,
  'rails-sent': 180_000,
  'rails-sent-legacy': 180_000,
  numbering: 180_000,
  // a hang guard, not a target: ~190 s beside the e2e run here (about 18 API starts under load);
  // 240 s left too little room on a busier machine
  documents: 480_000,
  schedule: 240_000,
};
const results = [];
/** The scenario running now: a scenario may report more than once (documents: h1 and h2). */
let currentScenario = null;

function report(name, figures, ok) {
  const line = Object.entries(figures)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`)
    .join(' ');
  console.log(`[faults] ${ok ? 'PASS' : 'FAIL'} ${name}: ${line}`);
  results.push({ name, scenario: currentScenario, ok, figures });
}

/** (a) 200 signed orders while Redis is killed with kill -9 and restarted mid-drain. */
async function redisScenario(stack) {
  const name = `redis${randomBytes(2).toString('hex')}`;
  const { base } = await stack.api(name);
  const s = await shop(stack, name, base);
  const orders = Array.from({ length: 200 }, () => order(2));
  const deadline = Date.now() + 150_000;
  const started = Date.now();
  let killedAt = null;
  let acked = 0;
  const killer = (async () => {
    await until('70 orders acknowledged', () => acked >= 70, 120_000, 50);
    stack.kill('redis');
    killedAt = Date.now();
    await sleep(3000);
    stack.restart();
  })();
  const sent = await pool(
    8,
    orders.map((o) => async () => {
      const r = await deliverUntilAcked(base, s, 'orders/create', o, deadline);
      if (r.acked) acked++;
      return r;
    }),
  );
  await killer;
  const sendMs = Date.now() - started;
  const conn = await stack.db(name);
  let figures;
  const drainMs = await until(
    'every acknowledged order stored',
    async () => {
      figures = await ledger(conn, s.shopId, orders);
      return figures.lost === 0;
    },
    90_000,
    1000,
  ).catch(() => null);
  figures = await ledger(conn, s.shopId, orders);
  await conn.close();
  const statuses = sent.flatMap((r) => r.attempts.map((a) => a.status));
  report(
    '(a) redis kill -9 mid-drain',
    {
      lost: figures.lost,
      duplicated: figures.duplicated,
      acknowledged: sent.filter((r) => r.acked).length,
      non200: statuses.filter((x) => x !== 200).length,
      redisDownS: killedAt ? 3 : 0,
      sendS: (sendMs / 1000).toFixed(1),
      drainedAfterSendS: drainMs === null ? 'timeout' : (drainMs / 1000).toFixed(1),
      deliveries: figures.deliveries,
    },
    figures.lost === 0 && figures.duplicated === 0 && sent.every((r) => r.acked) && killedAt !== null,
  );
}

/** (b) the MongoDB-compatible server killed and restarted during a burst. */
async function mongoScenario(stack) {
  const name = `mongo${randomBytes(2).toString('hex')}`;
  const api = await stack.api(name);
  const { base } = api;
  const s = await shop(stack, name, base);
  const orders = Array.from({ length: 150 }, () => order(2));
  const deadline = Date.now() + 160_000;
  let acked = 0;
  const ready = { wentDown: false, cameBack: false, downMs: null, maxErrorMs: 0 };
  const outageStatuses = [];
  const killer = (async () => {
    await until('50 orders acknowledged', () => acked >= 50, 120_000, 50);
    stack.kill('mongo');
    const killedAt = Date.now();
    await until(
      '/health/ready down',
      async () => (await json('GET', `${base}/health/ready`)).status === 503,
      20_000,
      200,
    );
    ready.wentDown = true;
    // what a client sees meanwhile: a read and a sign-in answer 503 + Retry-After within 5 s
    for (const [method, path, body] of [
      ['GET', '/v1/merchant-keys', undefined],
      ['POST', '/v1/authenticate', { apiKey: s.apiKey, shopDomain: s.shopDomain }],
    ]) {
      const res = await json(method, `${base}${path}`, body, { 'x-access-token': s.token });
      outageStatuses.push({
        path,
        status: res.status,
        ms: res.ms,
        retryAfter: res.headers.get('retry-after'),
      });
    }
    await sleep(Math.max(0, 8000 - (Date.now() - killedAt)));
    stack.restart();
    await until(
      '/health/ready up',
      async () => (await json('GET', `${base}/health/ready`)).status === 200,
      60_000,
      300,
    );
    ready.cameBack = true;
    ready.downMs = Date.now() - killedAt;
  })();
  const sent = await pool(
    8,
    orders.map((o) => async () => {
      const r = await deliverUntilAcked(base, s, 'orders/create', o, deadline);
      if (r.acked) acked++;
      return r;
    }),
  );
  await killer;
  const conn = await stack.db(name);
  let figures;
  const drainMs = await until(
    'every acknowledged delivery processed',
    async () => {
      figures = await ledger(conn, s.shopId, orders);
      return figures.lost === 0;
    },
    90_000,
    1000,
  ).catch(() => null);
  figures = await ledger(conn, s.shopId, orders);
  await conn.close();
  const attempts = sent.flatMap((r) => r.attempts);
  const errors = attempts.filter((a) => a.status !== 200);
  const apiAlive = api.child.exitCode === null;
  const outageOk = outageStatuses.every((o) => o.status === 503 && o.ms <= 5000 && o.retryAfter);
  report(
    '(b) store kill -9 during a burst',
    {
      lost: figures.lost,
      duplicated: figures.duplicated,
      acknowledged: sent.filter((r) => r.acked).length,
      refusedDuringOutage: errors.length,
      answered401: errors.filter((a) => a.status === 401).length,
      answered500: errors.filter((a) => a.status === 500).length,
      slowestRefusalMs: Math.max(0, ...errors.map((a) => a.ms)),
      readyDownThenUp: ready.wentDown && ready.cameBack,
      storeDownS: ready.downMs === null ? '?' : (ready.downMs / 1000).toFixed(1),
      apiRestarted: !apiAlive,
      outageAnswers: outageStatuses.map((o) => `${o.path}:${o.status}/${o.ms}ms`).join(','),
      drainedAfterSendS: drainMs === null ? 'timeout' : (drainMs / 1000).toFixed(1),
    },
    figures.lost === 0 &&
      figures.duplicated === 0 &&
      sent.every((r) => r.acked) &&
      errors.every((a) => a.status === 503 && a.ms <= 5000) &&
      ready.wentDown &&
      ready.cameBack &&
      apiAlive &&
      outageOk,
  );
}

/**
 * (c) the API process killed mid-payout-batch and restarted; the batch (sale and refund rows)
 * completes by itself, a vendor owing money back carries forward, and payouts:reconcile proves it.
 */
async function payoutScenario(stack) {
  const name = `payout${randomBytes(2).toString('hex')}`;
  const env = { PAYOUT_LEASE_SECONDS: '30', SWEEP_EVERY_SECONDS: '10' };
  let api = await stack.api(name, env);
  const { base, port } = api;
  const s = await shop(stack, name, base);
  const h = { 'x-access-token': s.token };
  const vendor = await json(
    'POST',
    `${base}/v1/vendors`,
    { vendorName: 'Fault Vendor', commissionType: 'percentage', commissionAmount: 10 },
    h,
  );
  if (vendor.status !== 200) throw new Error(`vendor: ${vendor.status} ${JSON.stringify(vendor.body)}`);
  const vendorId = vendor.body.vendor?._id ?? vendor.body._id;
  // A second vendor that owes money back: its small sale and a refund of a bigger, earlier paid-out
  // line net below zero, so its batch carries forward while the first vendor's is killed mid-run.
  const debtor = await json(
    'POST',
    `${base}/v1/vendors`,
    { vendorName: 'Fault Debtor', commissionType: 'percentage', commissionAmount: 10 },
    h,
  );
  if (debtor.status !== 200) throw new Error(`vendor: ${debtor.status} ${JSON.stringify(debtor.body)}`);
  const debtorId = debtor.body.vendor?._id ?? debtor.body._id;
  const orders = Array.from({ length: 60 }, () => order(5));
  const debtorOrder = order(1, 'Fault Debtor');
  const deadline = Date.now() + 150_000;
  await pool(
    6,
    [...orders, debtorOrder].map((o) => () => deliverUntilAcked(base, s, 'orders/create', o, deadline)),
  );
  const conn = await stack.db(name);
  const lines = conn.db.collection('line_items');
  const sid = new mongoose.Types.ObjectId(s.shopId);
  const vid = new mongoose.Types.ObjectId(vendorId);
  const total = orders.reduce((n, o) => n + o.line_items.length, 0) + 1;
  await until(
    'every line item ingested',
    async () => (await lines.countDocuments({ shopId: sid })) === total,
    120_000,
    1000,
  );
  // the debtor's line is paid out first (a batch of yesterday), then fully refunded today with a
  // new, smaller sale: its next batch nets below zero
  const yesterday = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
  const first = await json('POST', `${base}/v1/payouts/batches`, { vendorId: debtorId, until: yesterday }, h);
  if (first.status !== 202) throw new Error(`debtor batch: ${first.status} ${JSON.stringify(first.body)}`);
  await until(
    'the debtor is paid out',
    async () =>
      (await lines.countDocuments({ shopId: sid, batchId: first.body.batchIds[0], frozen: true })) === 1,
    60_000,
    200,
  );
  // refund ids (and so their webhook ids, wh-<id>) apart from every order id: id × 10 + 8
  const refund = (o, lineIdx, quantity) => ({
    id: o.id * 10 + 8,
    order_id: o.id,
    created_at: new Date().toISOString(),
    processed_at: new Date().toISOString(),
    transactions: [],
    order_adjustments: [],
    refund_line_items: [{ id: o.id * 10 + 9, line_item_id: o.line_items[lineIdx].id, quantity }],
  });
  const smallSale = order(1, 'Fault Debtor');
  smallSale.created_at = smallSale.updated_at = new Date().toISOString();
  smallSale.line_items[0].price = '1.00';
  // refund rows in the main vendor's batch too: one unit of the first line of 20 orders
  const refunds = [refund(debtorOrder, 0, 1), ...orders.slice(0, 20).map((o) => refund(o, 0, 1))];
  await pool(6, [
    () => deliverUntilAcked(base, s, 'orders/create', smallSale, deadline),
    ...refunds.map((r) => () => deliverUntilAcked(base, s, 'refunds/create', r, deadline)),
  ]);
  const withRefunds = total + 1 + refunds.length;
  await until(
    'every refund row recorded',
    async () => (await lines.countDocuments({ shopId: sid })) === withRefunds,
    120_000,
    500,
  );
  const mainRows = await lines.countDocuments({ shopId: sid, vendorId: vid });
  const until_ = new Date().toISOString().slice(0, 10);
  const trigger = await json('POST', `${base}/v1/payouts/batches`, { until: until_ }, h);
  if (trigger.status !== 202) throw new Error(`trigger: ${trigger.status} ${JSON.stringify(trigger.body)}`);
  const batchId = trigger.body.batches.find((b) => b.vendorId === vendorId)._id;
  const debtorBatchId = trigger.body.batches.find((b) => b.vendorId === debtorId)._id;
  // kill the API once the run has marked part of the batch, not all of it
  let markedAtKill = 0;
  await until(
    'the run marked part of the batch',
    async () => {
      markedAtKill = await lines.countDocuments({ shopId: sid, batchId });
      return markedAtKill > 0;
    },
    60_000,
    20,
  );
  stack.children.delete(api.child);
  api.child.kill('SIGKILL');
  const killedAt = Date.now();
  log(`kill -9 the API mid-batch (${markedAtKill} of ${total} lines marked)`);
  const batches = conn.db.collection('payout_batches');
  const atKill = await batches.findOne({ _id: new mongoose.Types.ObjectId(batchId) });
  api = await stack.api(name, { ...env, PORT: port });
  let batch;
  const completeMs = await until(
    'the batch completes by itself',
    async () => {
      batch = await batches.findOne({ _id: new mongoose.Types.ObjectId(batchId) });
      return batch?.status === 'completed';
    },
    120_000,
    500,
  ).catch(() => null);
  const sinceKill = Date.now() - killedAt;
  const paidLines = await lines.find({ shopId: sid, batchId }).toArray();
  const round2 = (n) => Math.round(n * 100) / 100;
  const sumPaid = round2(paidLines.reduce((x, l) => x + l.batchPaidAmount, 0));
  const paidTwice = paidLines.filter((l) => Math.abs(l.paid - l.payout) > 0.001 || l.balance !== 0).length;
  const eligibleUnpaid = await lines.countDocuments({
    shopId: sid,
    vendorId: vid,
    inPayouts: true,
    balance: { $ne: 0 },
    frozen: false,
  });
  const allBatches = await batches.find({ shopId: sid, _id: new mongoose.Types.ObjectId(batchId) }).toArray();
  const sumBatchTotals = round2(allBatches.reduce((x, b) => x + (b.lineItemTotal ?? 0), 0));
  const refundRowsPaid = paidLines.filter((l) => l.type === 'refund').length;
  let debtorBatch;
  await until(
    'the debtor batch settles',
    async () => {
      debtorBatch = await batches.findOne({ _id: new mongoose.Types.ObjectId(debtorBatchId) });
      return ['completed', 'carried_forward', 'failed'].includes(debtorBatch?.status);
    },
    120_000,
    500,
  ).catch(() => null);
  const debtorHeld = await lines.countDocuments({ shopId: sid, batchId: debtorBatchId });
  await conn.close();
  // the operator's proof: every vendor balance against its rows and batches (exits non-zero on a difference)
  let reconciled;
  try {
    reconciled = stack.cli(name, 'payouts:reconcile', '--domain', s.shopDomain).ok === true;
  } catch (err) {
    log(String(err));
    reconciled = false;
  }
  report(
    '(c) API kill -9 mid-payout-batch',
    {
      lost: eligibleUnpaid,
      duplicated: paidTwice,
      markedAtKill: `${markedAtKill}/${total}`,
      statusAtKill: atKill?.status,
      completedByItselfS: completeMs === null ? 'timeout' : (sinceKill / 1000).toFixed(1),
      runs: batch?.runs,
      sumBatchTotals,
      sumPaid,
      lineItemCount: `${batch?.lineItemCount}/${mainRows}`,
      refundRowsPaid: `${refundRowsPaid}/20`,
      debtor: `${debtorBatch?.status} net ${debtorBatch?.net} held ${debtorHeld}`,
      reconciled,
      retriggered: false,
    },
    completeMs !== null &&
      sinceKill <= 120_000 &&
      eligibleUnpaid === 0 &&
      paidTwice === 0 &&
      sumBatchTotals === sumPaid &&
      batch.lineItemCount === mainRows &&
      refundRowsPaid === 20 &&
      debtorBatch?.status === 'carried_forward' &&
      debtorBatch.net < 0 &&
      debtorBatch.total === 0 &&
      debtorHeld === 0 &&
      reconciled &&
      markedAtKill < mainRows,
  );
}

/**
 * (d) the worker killed mid-ingestion: nothing stuck active/received after the sweeper's grace period,
 * and payouts:reconcile proves the vendor's balance and its seller tax quarters against the rows (the
 * tally and the quarter marks it leaves were cut by the kill too).
 */
async function workerScenario(stack) {
  const name = `worker${randomBytes(2).toString('hex')}`;
  const grace = 10;
  const env = { INBOX_REDRIVE_AFTER_SECONDS: String(grace) };
  const { base } = await stack.api(name, { ...env, QUEUE_PROCESSORS: 'false' });
  const s = await shop(stack, name, base);
  const vendor = await json(
    'POST',
    `${base}/v1/vendors`,
    { vendorName: 'Fault Vendor', commissionType: 'percentage', commissionAmount: 10 },
    { 'x-access-token': s.token },
  );
  if (vendor.status !== 200) throw new Error(`vendor: ${vendor.status}`);
  let worker = await stack.worker(name, env);
  const orders = Array.from({ length: 150 }, () => order(3));
  const deadline = Date.now() + 120_000;
  await pool(
    8,
    orders.map((o) => () => deliverUntilAcked(base, s, 'orders/create', o, deadline)),
  );
  const conn = await stack.db(name);
  const deliveries = conn.db.collection('webhook_deliveries');
  const sid = new mongoose.Types.ObjectId(s.shopId);
  let processedAtKill = 0;
  await until(
    'the worker is part-way',
    async () => {
      processedAtKill = await deliveries.countDocuments({ shopId: sid, state: 'processed' });
      return processedAtKill >= 20;
    },
    90_000,
    50,
  );
  stack.children.delete(worker);
  worker.kill('SIGKILL');
  const killedAt = Date.now();
  log(`kill -9 the worker mid-ingestion (${processedAtKill} of ${orders.length} processed)`);
  await sleep(1000);
  worker = await stack.worker(`${name}-2`, {
    ...env,
    MONGODB_URI: stack.mongoUri(`faults_${name}`),
    QUEUE_PREFIX: `faults-${name}`,
  });
  const Redis = require('ioredis');
  const redis = new Redis(stack.servicesEnv.REDIS_URL);
  const prefix = `faults-${name}:ingestion`;
  const stuck = async () => ({
    received: await deliveries.countDocuments({ shopId: sid, state: 'received' }),
    active: await redis.llen(`${prefix}:active`),
    waiting: await redis.llen(`${prefix}:wait`),
  });
  let left;
  const drainMs = await until(
    'nothing received or active',
    async () => {
      left = await stuck();
      return left.received === 0 && left.active === 0 && left.waiting === 0;
    },
    90_000,
    500,
  ).catch(() => null);
  const sinceKill = Date.now() - killedAt;
  left = await stuck();
  const figures = await ledger(conn, s.shopId, orders);
  await redis.quit();
  await conn.close();
  let proof = null;
  try {
    proof = stack.cli(name, 'payouts:reconcile', '--domain', s.shopDomain);
  } catch (err) {
    log(String(err));
  }
  report(
    '(d) worker kill -9 mid-ingestion',
    {
      lost: figures.lost,
      duplicated: figures.duplicated,
      processedAtKill: `${processedAtKill}/${orders.length}`,
      stuckAfter: left,
      drainedAfterKillS: drainMs === null ? 'timeout' : (sinceKill / 1000).toFixed(1),
      graceS: grace,
      deliveries: figures.deliveries,
      attempts: figures.attempts,
      reconciled: proof?.ok === true,
      sellerTaxQuartersCompared: proof?.sellerTax?.compared ?? null,
    },
    figures.lost === 0 &&
      figures.duplicated === 0 &&
      drainMs !== null &&
      left.received === 0 &&
      left.active === 0 &&
      proof?.ok === true &&
      proof.sellerTax.compared > 0,
  );
}

const SCENARIOS = {
  redis: redisScenario,
  mongo: mongoScenario,
  payout: payoutScenario,
  worker: workerScenario,
  events: (stack) => eventsScenario(stack, report),
  'events-money': (stack) => moneyEventsScenario(stack, report),
  rails: (stack) => railsScenario(stack, report),
  'rails-sent': (stack) => railsSentScenario(stack, report),
  'rails-sent-legacy': (stack) => railsSentScenario(stack, report, true),
  numbering: (stack) => numberingScenario(stack, report),
  documents: (stack) => documentsScenario(stack, report),
  schedule: (stack) => scheduleScenario(stack, report),
};

async function main() {
  const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SCENARIOS);
  const stack = new Stack();
  const total = wanted.reduce((s, n) => s + LIMIT_MS[n], 60_000);
  const hard = setTimeout(() => {
    console.error(`[faults] FAIL: the fault tests exceeded their hard limit of ${total / 1000} s`);
    stack.logs();
    void stack.down().finally(() => process.exit(1));
  }, total);
  hard.unref();
  // scripts/test.sh runs this beside the contract run; a suite stopping early stops it with SIGTERM:
  // its store, Redis and apps go down with it, never left running on their ports.
  process.once('SIGTERM', () => {
    console.error('[faults] stopped (SIGTERM)');
    void stack.down().finally(() => process.exit(1));
  });
  let failed = false;
  try {
    await stack.up();
    for (const n of wanted) {
      const started = Date.now();
      log(`scenario ${n}`);
      currentScenario = n;
      let timer;
      try {
        await Promise.race([
          SCENARIOS[n](stack),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`timed out after ${LIMIT_MS[n] / 1000} s`)),
              LIMIT_MS[n],
            );
          }),
        ]);
      } catch (err) {
        report(n, { error: err.message }, false);
      } finally {
        clearTimeout(timer);
      }
      log(`scenario ${n} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // a scenario's processes stop before the next one starts
      for (const child of stack.children) child.kill('SIGKILL');
      await sleep(500);
    }
  } catch (err) {
    console.error(`[faults] FAIL: ${err.stack ?? err}`);
    failed = true;
  }
  failed ||= results.some((r) => !r.ok) || results.length < wanted.length;
  if (failed) stack.logs();
  await stack.down();
  // The summary comes after the logs, so a failure shows in the tail CI keeps: each failed report
  // again, then the count of scenarios (a scenario may report more than once) and of reports.
  for (const r of results.filter((x) => !x.ok))
    console.log(`[faults] FAIL ${r.name}: ${JSON.stringify(r.figures)}`);
  const failedNames = new Set(results.filter((r) => !r.ok).map((r) => r.scenario));
  const ran = new Set(results.map((r) => r.scenario));
  const passedScenarios = wanted.filter((n) => ran.has(n) && !failedNames.has(n)).length;
  console.log(
    `[faults] ${passedScenarios}/${wanted.length} scenarios passed ` +
      `(${results.filter((r) => r.ok).length}/${results.length} reports)`,
  );
  if (process.env.FAULTS_REPORT)
    require('node:fs').writeFileSync(process.env.FAULTS_REPORT, JSON.stringify(results, null, 2));
  process.exit(failed ? 1 : 0);
}

main();
