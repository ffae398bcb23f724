// Issue 19: outbound events (Standard Webhooks) to local receivers.
// Targets:
//   10,000 events to one local receiver                     delivered ≥ 300 events/s
//   change-to-delivery (POST /v1/vendors → receiver), p95   ≤ 500 ms
//   with another shop's receiver hanging 15 s on every call (written to as much, at the same
//   time), that p95 unchanged (±20 %); the same load beside a receiver that answers at once is
//   shown too, to tell load from the hanging peer
// Its own server (WEBHOOK_ALLOW_PRIVATE_TARGETS=true: the receivers are on loopback) on BENCH_PORT+1.
// Throughput: 10,000 vendor.created events are stored straight into `events` (writing 10,000 vendors
// would time the vendor endpoint, not delivery) and sent with POST …/replay: the whole pipeline from
// there (queue, claim, sign, POST, log) is timed until the receiver has every one.
// Latency: BENCH_EVENT_WRITES (default 1,000) vendor writes, 8 at a time; each event's latency is
// from the start of its POST to its arrival at the receiver.
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { MongoClient, ObjectId } = require('mongodb');

const EVENTS = Number(process.env.BENCH_EVENTS || 10_000);
const WRITES = Number(process.env.BENCH_EVENT_WRITES || 1000);
const PORT = Number(process.env.BENCH_PORT || 3990) + 1;
const BASE = `http://127.0.0.1:${PORT}`;

async function json(method, path, body, token) {
  const res = await fetch(BASE + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A loopback receiver: arrival time per webhook-id; `hangMs` holds every answer that long. */
async function receiver(hangMs = 0) {
  const arrived = new Map();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!arrived.has(req.headers['webhook-id'])) arrived.set(req.headers['webhook-id'], Date.now());
      setTimeout(() => res.writeHead(200).end('ok'), hangMs);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}

async function shopWithEndpoint(h, prefix, url) {
  const domain = `${prefix}-${randomBytes(4).toString('hex')}.myshopify.com`;
  const shop = h.cli('shop:create', '--domain', domain);
  const { token } = await json('POST', '/v1/authenticate', { apiKey: shop.apiKey, shopDomain: domain });
  const ep = await json('POST', '/v1/webhook-endpoints', { url, enabledEvents: ['vendor.created'] }, token);
  return { ...shop, token, endpointId: ep.id };
}

async function until(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** `n` vendor writes, 8 at a time; latency of each from its POST to its arrival. */
async function writeAndTime(shop, r, n, tag, wait = true) {
  const started = new Map();
  const answered = new Map();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = Date.now();
        const res = await json(
          'POST',
          '/v1/vendors',
          { vendorName: `${tag} ${i}`, commissionType: 'percentage', commissionAmount: 10 },
          shop.token,
        );
        started.set(res.vendor._id, t0);
        answered.set(res.vendor._id, Date.now());
      }
    }),
  );
  const ok = wait ? await until(() => r.arrived.size >= n, 60_000) : true;
  return { ok, started, answered };
}

/** Per event: from the start of its POST (`started`), or from its answer (`answered`: the change is committed), to its arrival. */
async function latencies(client, shop, r, started) {
  const events = await client
    .db()
    .collection('events')
    .find({ shopId: new ObjectId(shop.shopId), type: 'vendor.created' }, { projection: { body: 1 } })
    .toArray();
  const out = [];
  for (const e of events) {
    const vendorId = JSON.parse(e.body).data.object._id;
    const at = r.arrived.get(e._id);
    if (at !== undefined && started.has(vendorId)) out.push(at - started.get(vendorId));
  }
  return out;
}

module.exports = async function eventsBench(_server, h) {
  // A queue prefix of its own: the suite's default server (no private targets) must not take these jobs.
  const server = await h.startServer(
    {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX || 'mp'}-events-bench`,
    },
    PORT,
  );
  const client = await MongoClient.connect(
    process.env.MONGODB_URI || 'mongodb://127.0.0.1:27017/marketplace',
  );
  const receivers = [];
  const rows = [];
  const verdicts = [];
  try {
    // 1. throughput: 10,000 stored events replayed to one receiver
    const r1 = await receiver();
    receivers.push(r1);
    const s1 = await shopWithEndpoint(h, 'bench-events', r1.url);
    const since = new Date();
    const docs = Array.from({ length: EVENTS }, (_, i) => {
      const id = `evt_${new ObjectId().toHexString()}`;
      const createdAt = new Date(since.getTime() + i);
      const object = {
        _id: new ObjectId().toHexString(),
        vendorName: `Seeded ${i}`,
        commissionType: 'percentage',
        commissionAmount: 10,
        active: true,
      };
      const body = JSON.stringify({
        id,
        type: 'vendor.created',
        createdAt: createdAt.toISOString(),
        shopId: s1.shopId,
        apiVersion: 'v1',
        data: { object },
      });
      return {
        _id: id,
        shopId: new ObjectId(s1.shopId),
        type: 'vendor.created',
        createdAt,
        body,
        fanoutPendingAt: null,
      };
    });
    for (let i = 0; i < docs.length; i += 2000)
      await client
        .db()
        .collection('events')
        .insertMany(docs.slice(i, i + 2000));
    const t0 = Date.now();
    const replay = await json(
      'POST',
      `/v1/webhook-endpoints/${s1.endpointId}/replay`,
      { since: since.toISOString() },
      s1.token,
    );
    const allIn = await until(() => r1.arrived.size >= EVENTS, 180_000);
    const seconds = (Date.now() - t0) / 1000;
    const rate = Math.round(r1.arrived.size / seconds);
    rows.push({
      scenario: `${EVENTS} events → 1 receiver`,
      replayed: replay.replayed,
      delivered: r1.arrived.size,
      seconds: seconds.toFixed(1),
      'events/s': rate,
      peak_rss_mb: Math.round(h.rssMb(server.pid).peak),
    });
    verdicts.push({
      target: `${EVENTS} events to one receiver ≥ 300 events/s`,
      value: `${rate} events/s${allIn ? '' : ' (not all arrived)'}`,
      pass: allIn && rate >= 300,
    });

    // 2. change-to-delivery p95, alone
    const r2 = await receiver();
    receivers.push(r2);
    const s2 = await shopWithEndpoint(h, 'bench-events-lat', r2.url);
    const alone = await writeAndTime(s2, r2, WRITES, 'Alone');
    const lat1 = await latencies(client, s2, r2, alone.started);
    const afterAnswer = (await latencies(client, s2, r2, alone.answered)).map((x) => Math.max(0, x));
    const p95alone = pct(lat1, 95);
    rows.push({
      scenario: `${WRITES} writes, change→delivery`,
      p50_ms: pct(lat1, 50),
      p95_ms: p95alone,
      max_ms: Math.max(...lat1),
      delivered: lat1.length,
    });
    rows.push({
      scenario: `${WRITES} writes, answer→delivery`,
      p50_ms: pct(afterAnswer, 50),
      p95_ms: pct(afterAnswer, 95),
      max_ms: Math.max(...afterAnswer),
      delivered: afterAnswer.length,
    });
    verdicts.push({
      target: 'change-to-delivery p95 ≤ 500 ms',
      value: `${p95alone} ms`,
      pass: alone.ok && p95alone <= 500,
    });

    // 3. isolation: the same writes while another shop writes as much to its own endpoint, first
    // a receiver answering at once (the baseline: same load), then one hanging 15 s on every call
    const beside = async (hangMs, tag) => {
      const other = await receiver(hangMs);
      receivers.push(other);
      const sOther = await shopWithEndpoint(h, `bench-events-${tag}-other`, other.url);
      const r = await receiver();
      receivers.push(r);
      const s = await shopWithEndpoint(h, `bench-events-${tag}`, r.url);
      const [mine] = await Promise.all([
        writeAndTime(s, r, WRITES, `Beside ${tag}`),
        writeAndTime(sOther, other, WRITES, `Other ${tag}`, false),
      ]);
      const lat = await latencies(client, s, r, mine.started);
      return { ok: mine.ok, lat, p95: pct(lat, 95), otherGot: other.arrived.size };
    };
    const normal = await beside(0, 'normal');
    const hung = await beside(15_000, 'hung');
    for (const [name, run] of [
      ['beside a normal receiver (same load)', normal],
      ['beside a 15 s receiver', hung],
    ])
      rows.push({
        scenario: `${WRITES} writes ${name}`,
        p50_ms: pct(run.lat, 50),
        p95_ms: run.p95,
        max_ms: Math.max(...run.lat),
        delivered: run.lat.length,
        other_receiver_got: run.otherGot,
      });
    // The measure: the p95 beside a hanging receiver against the p95 alone (scenario 2);
    // the same-load baseline says how much of any difference is load rather than the hanging peer.
    const change = (hung.p95 - p95alone) / p95alone;
    verdicts.push({
      target: 'p95 beside a hanging receiver unchanged (±20 %) against the p95 alone',
      value: `${hung.p95} ms vs ${p95alone} ms alone (${(change * 100).toFixed(0)} %); same load beside a normal receiver: ${normal.p95} ms`,
      pass: hung.ok && normal.ok && Math.abs(change) <= 0.2,
    });
  } finally {
    await Promise.all(receivers.map((r) => r.close()));
    await client.close();
    server.kill('SIGTERM');
  }
  return { rows, verdicts };
};
