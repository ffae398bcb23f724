'use strict';
// (g) gap-free document numbers under kill -9 (issue 32, DESIGN §14), run by run.js as `numbering`:
// 200 unnumbered documents of one shop are numbered by several worker processes at once (the built
// code, test/faults/numbering-worker.js), which are killed with kill -9 at random moments and at
// each of the allocator's crash points (FAULT_CRASH_POINT: after the claim, the register row, the
// number on the document, the advance), and started again. After the last workers finish: every
// document has exactly one number, the numbers are 1..200 without gap or duplicate, the register
// holds the same pairs, and the counter stands free at 201.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { until, sleep, log } = require('./harness');

const DOCUMENTS = 200;
const WORKERS = 3;
const RANDOM_KILLS = 6;
const CRASH_POINTS = ['numbering:claimed', 'numbering:registered', 'numbering:written', 'numbering:advanced'];

/** Starts one worker; resolves once it printed `ready` (its app is up) or exited. */
function startWorker(stack, name, tag, shopId, idsFile, extra = {}) {
  const logFile = path.join(stack.dir, `${name}-${tag}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(__dirname, 'numbering-worker.js'), shopId, idsFile], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: stack.appEnv(name, extra),
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  stack.children.add(child);
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      stack.children.delete(child);
      resolve({ code, signal });
    }),
  );
  const ready = until(
    `numbering worker ${child.pid} ready`,
    () =>
      child.exitCode !== null ||
      child.signalCode !== null ||
      fs.readFileSync(logFile, 'utf8').includes('ready\n'),
    90_000,
    100,
  );
  return { child, exited, ready, logFile };
}

async function numberingScenario(stack, report) {
  const name = `numbering${randomBytes(2).toString('hex')}`;
  const created = stack.cli(name, 'shop:create', '--domain', `${name}.myshopify.com`);
  const sid = new mongoose.Types.ObjectId(created.shopId);
  const conn = await stack.db(name);
  const docs = conn.db.collection('documents');
  const ids = Array.from({ length: DOCUMENTS }, () => new mongoose.Types.ObjectId());
  await docs.insertMany(
    // one batch each: the documents' unique key is (shop, batch, vendor, kind, order)
    ids.map((_id) => ({
      _id,
      shopId: sid,
      batchId: new mongoose.Types.ObjectId(),
      vendorId: new mongoose.Types.ObjectId(),
      orderId: null,
      state: 'pending',
      number: null,
      type: 'commission_invoice',
      issuedAt: new Date('2026-06-15T10:00:00Z'),
    })),
  );
  const idsFile = path.join(stack.dir, `${name}-ids.json`);
  fs.writeFileSync(idsFile, JSON.stringify(ids.map(String)));
  const numbered = () => docs.countDocuments({ shopId: sid, _id: { $in: ids }, number: { $type: 'string' } });

  const started = Date.now();
  let randomKills = 0;
  const crashes = [];
  let restarts = 0;
  const run = (tag, point) => {
    restarts++;
    const extra = { NUMBERING_CONCURRENCY: '2', ...(point ? { FAULT_CRASH_POINT: point } : {}) };
    const w = { ...startWorker(stack, name, tag, created.shopId, idsFile, extra), point, killed: false };
    w.ready.then(() => (w.isReady = true)).catch(() => undefined);
    return w;
  };
  const alive = (w) => w.child.exitCode === null && w.child.signalCode === null;
  // Three workers at once. Workers given a crash point die there (the process kills itself right
  // after that write, on its n-th pass); the others are hit by kill -9 at random moments. Every
  // exited worker is started again, with the next crash point while any is left.
  const crashQueue = CRASH_POINTS.map((p, i) => `${p}@${2 + i}`);
  const slots = Array.from({ length: WORKERS }, (_, i) =>
    run(`w${i}-0`, i === 0 ? undefined : crashQueue.shift()),
  );
  const deadline = Date.now() + 110_000;
  let atLastKill = 0;
  while ((randomKills < RANDOM_KILLS || crashQueue.length) && Date.now() < deadline) {
    await sleep(200 + Math.random() * 800);
    for (let i = 0; i < slots.length; i++) {
      const w = slots[i];
      if (alive(w)) continue;
      const end = await w.exited;
      if (end.signal === 'SIGKILL' && !w.killed) crashes.push(w.point);
      slots[i] = run(`w${i}-${restarts}`, crashQueue.shift());
    }
    // a random kill -9 of a running worker that has no crash point of its own (that one dies there)
    const ready = slots.filter((w) => !w.point && !w.killed && alive(w) && w.isReady);
    if (randomKills < RANDOM_KILLS && ready.length > 0) {
      const victim = ready[Math.floor(Math.random() * ready.length)];
      await sleep(Math.random() * 600);
      if (alive(victim)) {
        victim.killed = true;
        victim.child.kill('SIGKILL');
        randomKills++;
        atLastKill = await numbered();
        log(`kill -9 numbering worker ${victim.child.pid} (${atLastKill}/${DOCUMENTS} numbered)`);
      }
    }
  }
  // the last restart: workers run to the end
  const finals = slots.map((w, i) => (alive(w) ? w : run(`w${i}-final`)));
  const ends = await Promise.all(finals.map((w) => w.exited));
  finals.forEach((w, i) => {
    if (ends[i].signal === 'SIGKILL' && !w.killed) crashes.push(w.point);
  });
  // a worker that died at its crash point after the loop: one more, to the end
  if (ends.some((e) => e.code !== 0)) await run('last').exited;
  const finishS = ((Date.now() - started) / 1000).toFixed(1);

  const rows = await docs
    .find({ shopId: sid, _id: { $in: ids } }, { projection: { number: 1, series: 1, year: 1, seq: 1 } })
    .toArray();
  const register = await conn.db
    .collection('document_numbers')
    .find({ shopId: sid, series: 'commission_invoice', year: 2026 })
    .sort({ seq: 1 })
    .toArray();
  const counter = await conn.db
    .collection('document_counters')
    .findOne({ shopId: sid, series: 'commission_invoice', year: 2026 });
  await conn.close();

  const seqs = rows.filter((r) => typeof r.number === 'string').map((r) => r.seq);
  const lost = DOCUMENTS - seqs.length;
  const seen = new Map();
  for (const s of seqs) seen.set(s, (seen.get(s) ?? 0) + 1);
  const duplicated = [...seen.values()].reduce((n, k) => n + k - 1, 0);
  const max = seqs.length ? Math.max(...seqs) : 0;
  const gaps = Array.from({ length: max }, (_, i) => i + 1).filter((s) => !seen.has(s)).length;
  const textOk = rows.every((r) => r.number === `INV-2026-${String(r.seq).padStart(6, '0')}`);
  const byDoc = new Map(rows.map((r) => [String(r._id), r.seq]));
  const registerMismatch =
    register.filter((r) => byDoc.get(String(r.documentId)) !== r.seq).length +
    Math.abs(register.length - seqs.length);
  report(
    '(g) numbering workers kill -9 at random and at each crash point',
    {
      lost,
      duplicated,
      gaps,
      numbered: `${seqs.length}/${DOCUMENTS}`,
      highest: max,
      registerMismatch,
      counter: counter ? `next=${counter.next} holder=${counter.holder}` : 'none',
      randomKills,
      crashPointKills: crashes.length,
      crashPoints: crashes.map((p) => p.split(':')[1]).join(','),
      restarts,
      numberedAtLastKill: atLastKill,
      finishedS: finishS,
    },
    lost === 0 &&
      duplicated === 0 &&
      gaps === 0 &&
      max === DOCUMENTS &&
      textOk &&
      registerMismatch === 0 &&
      counter?.next === DOCUMENTS + 1 &&
      counter?.holder === null &&
      randomKills >= 5 &&
      new Set(crashes.map((p) => p.split('@')[0])).size === CRASH_POINTS.length,
  );
}

module.exports = { numberingScenario };
