'use strict';
// Fault-test harness: its own MongoDB-compatible server and Redis (started by scripts/services.sh
// on free ports, in a throw-away data directory, so whatever store services.sh starts is the one
// tested), the built API and worker as child processes, kill -9, signed webhooks sent the way the
// store platform does (retried until a 200), and direct reads of the database for the figures.
const { spawn, spawnSync } = require('node:child_process');
const { createHmac, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const mongoose = require('mongoose');

const ROOT = path.resolve(__dirname, '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (...args) => console.log(`[faults ${new Date().toISOString().slice(11, 23)}]`, ...args);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Runs `scripts/services.sh <args>` for this run's data dir and ports; returns stdout. */
function services(env, ...args) {
  const res = spawnSync('bash', [path.join(ROOT, 'scripts', 'services.sh'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (res.status !== 0) throw new Error(`services.sh ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout.trim();
}

function kill9(pid, what) {
  try {
    process.kill(Number(pid), 'SIGKILL');
    log(`kill -9 ${what} (pid ${pid})`);
  } catch (err) {
    throw new Error(`could not kill ${what} (${pid}): ${err.message}`);
  }
}

class Stack {
  constructor() {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mp-faults-'));
    this.children = new Set();
  }

  async up() {
    this.mongoPort = await freePort();
    this.redisPort = await freePort();
    this.servicesEnv = {
      MP_DATA_DIR: this.dir,
      MONGODB_URI: `mongodb://127.0.0.1:${this.mongoPort}/faults`,
      REDIS_URL: `redis://127.0.0.1:${this.redisPort}`,
    };
    // share the checkout's one-off builds (a throw-away data dir has none)
    if (!process.env.MP_BIN_DIR && fs.existsSync(path.join(ROOT, '.data', 'bin')))
      this.servicesEnv.MP_BIN_DIR = path.join(ROOT, '.data', 'bin');
    services(this.servicesEnv, 'up');
    log(`store on :${this.mongoPort}, redis on :${this.redisPort} (data ${this.dir})`);
  }

  pid(kind) {
    return services(this.servicesEnv, 'pid', kind);
  }

  /** kill -9 one of the services; `up` restarts it on the same data. */
  kill(kind) {
    kill9(this.pid(kind), kind === 'mongo' ? 'the MongoDB-compatible server' : 'redis-server');
  }

  restart() {
    services(this.servicesEnv, 'up');
    log('services up again');
  }

  mongoUri(db) {
    return `mongodb://127.0.0.1:${this.mongoPort}/${db}`;
  }

  /** Environment of an app process of scenario `name`. */
  appEnv(name, extra = {}) {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      MP_DATA_DIR: this.dir, // the generated JWT secret lives here
      MONGODB_URI: this.mongoUri(`faults_${name}`),
      REDIS_URL: this.servicesEnv.REDIS_URL,
      QUEUE_PREFIX: `faults-${name}`,
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
      INBOX_REDRIVE_AFTER_SECONDS: '10',
      SWEEP_EVERY_SECONDS: '3',
      // A load generator sends far more than the per-credential limit (100/min by default) on one token.
      RATE_LIMIT_SHOP_PER_MINUTE: '10000000',
      RATE_LIMIT_MERCHANT_PER_MINUTE: '10000000',
      RATE_LIMIT_VENDOR_PER_MINUTE: '10000000',
      RATE_LIMIT_SIGN_IN_PER_ADDRESS: '10000000',
      SIGN_IN_FAILURES_PER_ADDRESS: '10000000',
      SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY: '10000000',
      SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR: '10000000',
      ...extra,
    };
  }

  /** Starts `node dist/<script>` with `env`; resolves once `ready()` is true. */
  async start(what, script, env, ready) {
    const logFile = path.join(this.dir, `${what}.log`);
    const out = fs.openSync(logFile, 'a');
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', script)], {
      cwd: ROOT,
      env,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    this.children.add(child);
    child.on('exit', () => this.children.delete(child));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`${what} exited (${child.exitCode}); log: ${tail(logFile)}`);
      if (await ready().catch(() => false)) break;
      if (Date.now() > deadline) throw new Error(`${what} not ready within 60 s; log: ${tail(logFile)}`);
      await sleep(200);
    }
    log(`${what} started (pid ${child.pid})`);
    return child;
  }

  /**
   * The API (processors in-process unless env says otherwise) on a free port. A free port can be
   * taken before the API binds it (another process's outbound connection picks ports from the same
   * ephemeral range): on EADDRINUSE a new port is chosen, or, for a restart on the port the scenario
   * keeps (`extra.PORT`), the same port is tried again a little later.
   */
  async api(name, extra = {}) {
    for (let attempt = 1; ; attempt++) {
      const port = extra.PORT ?? String(await freePort());
      const base = `http://127.0.0.1:${port}`;
      try {
        const child = await this.start(
          `api-${name}`,
          'main.js',
          this.appEnv(name, { ...extra, PORT: port }),
          async () => {
            const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(1000) });
            return res.ok;
          },
        );
        return { child, base, port };
      } catch (err) {
        if (attempt >= 5 || !/EADDRINUSE/.test(String(err))) throw err;
        log(
          `api-${name}: port ${port} in use (attempt ${attempt}); trying ${extra.PORT ? 'it again' : 'another'}`,
        );
        await sleep(extra.PORT ? 2000 : 200);
      }
    }
  }

  async worker(name, extra = {}) {
    const logFile = path.join(this.dir, `worker-${name}.log`);
    const started = () =>
      fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8').includes('Marketplace worker started');
    return this.start(
      `worker-${name}`,
      'worker.js',
      this.appEnv(name, { ...extra, LOG_LEVEL: 'info' }),
      async () => started(),
    );
  }

  /** An operator command's JSON. */
  cli(name, ...args) {
    const res = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'cli', 'main.js'), ...args], {
      cwd: ROOT,
      env: this.appEnv(name),
      encoding: 'utf8',
      timeout: 120_000,
    });
    const out = JSON.parse(res.stdout.trim().split('\n').pop());
    if (res.status !== 0) throw new Error(`cli ${args.join(' ')}: ${res.stdout} ${res.stderr}`);
    return out;
  }

  async db(name) {
    const conn = mongoose.createConnection(this.mongoUri(`faults_${name}`), {
      serverSelectionTimeoutMS: 10_000,
    });
    await conn.asPromise();
    return conn;
  }

  async down() {
    if (process.env.FAULTS_HOLD) {
      log(`holding for inspection (FAULTS_HOLD): ${JSON.stringify(this.servicesEnv)}`);
      await sleep(Number(process.env.FAULTS_HOLD) * 1000);
    }
    for (const child of this.children) child.kill('SIGKILL');
    try {
      services(this.servicesEnv ?? {}, 'down');
    } catch (err) {
      log(`services down: ${err.message}`);
    }
    if (!process.env.FAULTS_KEEP) fs.rmSync(this.dir, { recursive: true, force: true });
    else log(`kept ${this.dir}`);
  }

  logs() {
    for (const f of fs.readdirSync(this.dir).filter((n) => n.endsWith('.log'))) {
      console.log(`----- ${f} (last lines)\n${tail(path.join(this.dir, f), 30)}`);
    }
  }
}

function tail(file, lines = 20) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function json(method, url, body, headers = {}) {
  const started = Date.now();
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, ms: Date.now() - started, headers: res.headers };
  } catch (err) {
    return { status: 0, body: String(err), ms: Date.now() - started, headers: new Headers() };
  }
}

/** A shop made with the CLI, and its shop token. */
async function shop(stack, name, base) {
  const created = stack.cli(
    name,
    'shop:create',
    '--domain',
    `${name}-${randomBytes(4).toString('hex')}.myshopify.com`,
  );
  const auth = await json('POST', `${base}/v1/authenticate`, {
    apiKey: created.apiKey,
    shopDomain: created.shopDomain,
  });
  if (auth.status !== 200) throw new Error(`authenticate: ${auth.status} ${JSON.stringify(auth.body)}`);
  return { ...created, token: auth.body.token };
}

let seq = 0;
/** A paid Shopify order of `lines` line items of `vendor`, created yesterday. */
function order(lines, vendor = 'Fault Vendor') {
  const id = (Date.now() % 1e9) * 1000 + (seq++ % 1000); // line ids (id × 10 + i) stay safe integers
  const created = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
  return {
    id,
    name: `#F${id}`,
    order_number: 1000 + (id % 100000),
    created_at: created,
    updated_at: created,
    financial_status: 'paid',
    line_items: Array.from({ length: lines }, (_, i) => ({
      id: id * 10 + i,
      sku: `FAULT-${i}`,
      vendor,
      name: `Item ${i}`,
      price: `${(10 + i).toFixed(2)}`,
      quantity: 1 + (i % 3),
    })),
  };
}

/**
 * Sends one signed webhook like the store platform: retried (every `retryMs`) until answered 200,
 * so a 200 is the only acknowledgement. Returns the attempts' statuses and latencies.
 */
async function deliverUntilAcked(base, s, topic, payload, deadline, retryMs = 300) {
  const raw = JSON.stringify(payload);
  const headers = {
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': s.shopDomain,
    'x-shopify-webhook-id': `wh-${payload.id}`,
    'x-shopify-hmac-sha256': createHmac('sha256', s.webhookSecret).update(raw).digest('base64'),
  };
  const attempts = [];
  for (;;) {
    const res = await json('POST', `${base}/webhooks/shopify`, raw, headers);
    attempts.push({ status: res.status, ms: res.ms });
    if (res.status === 200) return { acked: true, attempts, duplicate: res.body.duplicate };
    if (Date.now() > deadline) return { acked: false, attempts };
    await sleep(retryMs);
  }
}

/** Runs `tasks` (async functions) with at most `n` in flight. */
async function pool(n, tasks) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

/** Polls `check` (true = done) every `everyMs` until `deadline`; returns the elapsed ms or throws. */
async function until(what, check, timeoutMs, everyMs = 500) {
  const started = Date.now();
  for (;;) {
    let ok = false;
    try {
      ok = await check();
    } catch {
      ok = false;
    }
    if (ok) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(everyMs);
  }
}

/**
 * What the database holds for acknowledged orders: lost (acknowledged, no order or no line
 * items, or its delivery not processed) and duplicated (more than one document per key).
 */
async function ledger(conn, shopId, orders) {
  const sid = new mongoose.Types.ObjectId(shopId);
  const db = conn.db;
  const ids = orders.map((o) => o.id);
  const count = async (coll, keyFields) => {
    const rows = await db
      .collection(coll)
      .aggregate([{ $match: { shopId: sid } }, { $group: { _id: keyFields, n: { $sum: 1 } } }])
      .toArray();
    return rows;
  };
  const orderRows = await count('orders', '$orderId');
  const lineRows = await count('line_items', { o: '$orderId', l: '$lineItemId' });
  const deliveryRows = await count('webhook_deliveries', '$webhookId');
  const storedOrders = new Set(orderRows.map((r) => r._id));
  const linesPerOrder = new Map();
  for (const r of lineRows) linesPerOrder.set(r._id.o, (linesPerOrder.get(r._id.o) ?? 0) + 1);
  const deliveries = await db
    .collection('webhook_deliveries')
    .find({ shopId: sid }, { projection: { webhookId: 1, state: 1, attempts: 1 } })
    .toArray();
  const processed = new Set(deliveries.filter((d) => d.state === 'processed').map((d) => d.webhookId));
  let lost = 0;
  for (const o of orders) {
    const lines = linesPerOrder.get(o.id) ?? 0;
    if (!storedOrders.has(o.id) || lines !== o.line_items.length || !processed.has(`wh-${o.id}`)) lost++;
  }
  const extra = (rows) => rows.reduce((s, r) => s + Math.max(0, r.n - 1), 0);
  const duplicated = extra(orderRows) + extra(lineRows) + extra(deliveryRows);
  const byState = deliveries.reduce((m, d) => ({ ...m, [d.state]: (m[d.state] ?? 0) + 1 }), {});
  const attempts = deliveries.reduce((s, d) => s + (d.attempts ?? 0), 0);
  return { acknowledged: ids.length, lost, duplicated, deliveries: byState, attempts };
}

module.exports = {
  Stack,
  json,
  shop,
  order,
  deliverUntilAcked,
  pool,
  until,
  ledger,
  sleep,
  log,
  freePort,
  ROOT,
};
