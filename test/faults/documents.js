'use strict';
// (h) documents issued on batch completion under concurrency and kill -9 (issue 32, DESIGN §14),
// run by run.js as `documents`. One shop, 20 vendors (10 % commission), each with a paid order of
// yesterday and one of today, ingested through signed webhooks.
//  1. 20 batches (one per vendor, until yesterday) triggered at once through POST /v1/payouts/batches:
//     once all are settled and issued, the commission invoices are INV-<year>-000001..000020, one per
//     batch, no gap, no duplicate, and each batch has its payout statement.
//  2. Rounds of 2 batches each (today's rows of 2 more vendors): the API (with its processors) is
//     started with FAULT_CRASH_POINT at each of the issuer's and the allocator's crash points (it
//     kills itself there, kill -9) or killed with kill -9 at a random moment, then started again.
//     After a last clean start: every completed batch has exactly its documents, all issued, the
//     series 1..40 without gap or duplicate, each document audited and announced exactly once.
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { json, shop, order, deliverUntilAcked, pool, until, sleep, log } = require('./harness');
const { documentFigures } = require('./documents-check');

const VENDORS = 20;
const PER_ROUND = 2;
const CRASH_POINTS = [
  'document:after-pending',
  'numbering:claimed',
  'numbering:registered',
  'numbering:written',
  'numbering:advanced',
  'document:after-number',
  'document:after-issue',
];
const RANDOM_KILLS = 3;

async function documentsScenario(stack, report) {
  const name = `documents${randomBytes(2).toString('hex')}`;
  // the sweepers pick up what a kill left quickly: batches (payout and documents) a lease after
  // their last write, pending events a redrive period after their marker
  const env = { PAYOUT_LEASE_SECONDS: '8', SWEEP_EVERY_SECONDS: '2', INBOX_REDRIVE_AFTER_SECONDS: '5' };
  let api = await stack.api(name, env);
  const { base, port } = api;
  const s = await shop(stack, name, base);
  const h = { 'x-access-token': s.token };
  const vendors = await pool(
    4,
    Array.from({ length: VENDORS }, (_, i) => async () => {
      const vendorName = `Doc Vendor ${i}`;
      const v = await json(
        'POST',
        `${base}/v1/vendors`,
        { vendorName, commissionType: 'percentage', commissionAmount: 10 },
        h,
      );
      if (v.status !== 200) throw new Error(`vendor: ${v.status} ${JSON.stringify(v.body)}`);
      return { id: v.body.vendor?._id ?? v.body._id, name: vendorName };
    }),
  );
  // per vendor: an order of yesterday (phase 1) and one of today (phase 2), 2 lines each
  const orders = vendors.flatMap((v) => {
    const today = order(2, v.name);
    today.created_at = today.updated_at = new Date().toISOString();
    return [order(2, v.name), today];
  });
  const deadline = Date.now() + 90_000;
  await pool(
    6,
    orders.map((o) => () => deliverUntilAcked(base, s, 'orders/create', o, deadline)),
  );
  const conn = await stack.db(name);
  const sid = new mongoose.Types.ObjectId(s.shopId);
  const lineCount = orders.length * 2;
  await until(
    'every line item ingested',
    async () => (await conn.db.collection('line_items').countDocuments({ shopId: sid })) === lineCount,
    60_000,
    500,
  );
  const day = (ms) => new Date(Date.now() - ms).toISOString().slice(0, 10);
  const trigger = async (vendorId, untilDay) => {
    const r = await json('POST', `${base}/v1/payouts/batches`, { vendorId, until: untilDay }, h);
    return r.status === 202 ? r.body.batchIds[0] : null;
  };
  let check;
  const settle = (what, ms) =>
    until(
      what,
      async () => {
        check = await documentFigures(conn, s.shopId);
        return check.settled;
      },
      ms,
      500,
    );

  // 1. 20 batches completing at once
  const t1 = Date.now();
  const firstBatches = await Promise.all(vendors.map((v) => trigger(v.id, day(24 * 3600 * 1000))));
  await settle('the 20 batches settled and their documents issued', 60_000);
  const concurrentS = ((Date.now() - t1) / 1000).toFixed(1);
  const year = new Date().getUTCFullYear();
  const firstSet = new Set(firstBatches.map(String));
  const inv = check.invoices.filter((d) => firstSet.has(String(d.batchId)));
  const numbers = inv.map((d) => d.number).sort();
  const expected = Array.from({ length: VENDORS }, (_, i) => `INV-${year}-${String(i + 1).padStart(6, '0')}`);
  const oneEach = new Set(inv.map((d) => String(d.batchId))).size === VENDORS;
  report(
    '(h1) 20 batches of one shop completing at once',
    { ...check.figures, numbers: `${numbers[0]}..${numbers[numbers.length - 1]}`, settledS: concurrentS },
    check.ok &&
      firstBatches.every(Boolean) &&
      check.completed === VENDORS &&
      oneEach &&
      JSON.stringify(numbers) === JSON.stringify(expected),
  );

  // 2. kill -9 at each crash point, and at random moments
  const alive = () => api.child.exitCode === null && api.child.signalCode === null;
  const exited = (child) =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.signalCode);
      child.once('exit', (_code, signal) => resolve(signal));
    });
  const restart = async (extra = {}) => {
    if (alive()) {
      stack.children.delete(api.child);
      api.child.kill('SIGKILL');
      await exited(api.child);
    }
    // a process given a crash point may reach it while starting (its documents sweeper finishes
    // what the previous kill left): it is then ready in the sense that matters, dead at that point
    const before = new Set(stack.children);
    let spawned = null;
    const child = await stack.start(
      `api-${name}`,
      'main.js',
      stack.appEnv(name, { ...env, ...extra, PORT: port }),
      async () => {
        spawned ??= [...stack.children].find((c) => !before.has(c)) ?? null;
        if (spawned?.signalCode) return true;
        return (await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) })).ok;
      },
    );
    api = { child, base, port };
    return child.signalCode !== null;
  };
  const rounds = [...CRASH_POINTS, ...Array.from({ length: RANDOM_KILLS }, () => null)];
  const crashed = [];
  const missed = [];
  const untriggered = [];
  const atStart = [];
  let randomKills = 0;
  let drained = 0;
  let onOwnBatches = 0;
  const issuedNow = () => conn.db.collection('documents').countDocuments({ shopId: sid, state: 'issued' });
  for (let r = 0; r < rounds.length; r++) {
    const point = rounds[r];
    const mine = vendors.slice(r * PER_ROUND, (r + 1) * PER_ROUND);
    // a clean start first finishes what the previous kill left, so that the crash point is reached
    // on this round's own, fresh batches (bounded: a batch still unfinished is simply killed again)
    if (point && r > 0) {
      await restart();
      if (await settle('the previous kill finished', 20_000).catch(() => false)) drained++;
    }
    const diedStarting = await restart(point ? { FAULT_CRASH_POINT: point } : {});
    if (diedStarting) atStart.push(point);
    const child = api.child;
    const ids = await Promise.all(mine.map((v) => trigger(v.id, day(0))));
    mine.forEach((v, i) => ids[i] === null && untriggered.push(v));
    if (point) {
      const signal = await Promise.race([exited(child), sleep(45_000).then(() => 'timeout')]);
      if (signal === 'SIGKILL') crashed.push(point);
      if (signal === 'SIGKILL' && !diedStarting && ids.every(Boolean)) onOwnBatches++;
      else missed.push(point);
      log(
        `${point}: ${signal === 'SIGKILL' ? 'the API killed itself there' : 'not reached'} (${await issuedNow()} issued)`,
      );
    } else {
      await sleep(300 + Math.random() * 2500);
      if (alive()) {
        stack.children.delete(child);
        child.kill('SIGKILL');
        await exited(child);
        randomKills++;
        log(`kill -9 the API at a random moment (${await issuedNow()} documents issued)`);
      }
    }
  }
  // the last start: no crash point; batches a crash kept from being triggered are triggered now
  await restart();
  const retriggered = await Promise.all(untriggered.map((v) => trigger(v.id, day(0))));
  const t2 = Date.now();
  await settle('every batch settled and every document issued after the kills', 100_000).catch(() => null);
  check = await documentFigures(conn, s.shopId);
  await conn.close();
  const total = VENDORS * 2;
  report(
    '(h2) API kill -9 at each issuing crash point and at random',
    {
      ...check.figures,
      crashPointKills: crashed.length,
      notReached: missed.map((p) => p.split(':')[1]).join(',') || 'none',
      crashOnOwnBatches: onOwnBatches,
      drainedBetween: drained,
      crashedWhileStarting: atStart.map((p) => p.split(':')[1]).join(',') || 'none',
      randomKills,
      triggeredAfterRestart: untriggered.length,
      settledAfterLastStartS: ((Date.now() - t2) / 1000).toFixed(1),
    },
    check.ok &&
      check.completed === total &&
      check.figures.highest === total &&
      retriggered.every(Boolean) &&
      crashed.length === CRASH_POINTS.length &&
      randomKills >= RANDOM_KILLS - 1,
  );
}

module.exports = { documentsScenario };
