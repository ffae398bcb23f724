// Benchmark harness: starts the built server (dist/main.js) on the local services, runs scenarios
// with autocannon (fixed duration and connections) and prints requests/s, latency percentiles and the
// server's peak RSS (VmHWM). Feature scenarios live beside this file and are listed in index.js.
const { spawn, execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');

const PORT = Number(process.env.BENCH_PORT || 3990);
const BASE = `http://127.0.0.1:${PORT}`;

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number((status.match(new RegExp(`${name}:\\s+(\\d+)`)) || [0, 0])[1]);
  return { current: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

// A load generator sends far more than the per-credential limit (100/min by default) on one token.
const UNLIMITED = Object.fromEntries(
  ['SHOP', 'MERCHANT', 'VENDOR']
    .map((k) => [`RATE_LIMIT_${k}_PER_MINUTE`, '10000000'])
    .concat([
      ['RATE_LIMIT_SIGN_IN_PER_ADDRESS', '10000000'],
      ['SIGN_IN_FAILURES_PER_ADDRESS', '10000000'],
      ['SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY', '10000000'],
      ['SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR', '10000000'],
    ]),
);

/** Extra node flags for the API and the CLI (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a run). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean);

async function startServer(env = {}, port = PORT) {
  const child = spawn('node', [...NODE_ARGS, 'dist/main.js'], {
    // MALLOC_ARENA_MAX as the Dockerfile runs the service (glibc reads it at process start).
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || '2',
      ...UNLIMITED,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: process.env.METRICS_PORT || '0',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('server did not start');
}

function cli(...args) {
  return JSON.parse(
    execFileSync('node', [...NODE_ARGS, 'dist/cli/main.js', ...args], { env: process.env, encoding: 'utf8' }),
  );
}

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

/** A fresh shop with a shop token and a merchant token. */
async function benchShop(prefix = 'bench') {
  const domain = `${prefix}-${Date.now().toString(36)}.myshopify.com`;
  const shop = cli('shop:create', '--domain', domain);
  const { token } = await json('POST', '/v1/authenticate', { apiKey: shop.apiKey, shopDomain: domain });
  const mk = cli('merchant-key:create', '--domain', domain);
  const merchant = await json('POST', '/authenticate', { apiKey: mk.key });
  return { ...shop, domain, token, merchantToken: merchant.data.token };
}

/** Runs autocannon against one request shape; returns figures and whether every response had the expected status. */
async function load(name, opts, pid) {
  const duration = Number(process.env.BENCH_DURATION || opts.duration || 10);
  const connections = Number(process.env.BENCH_CONNECTIONS || opts.connections || 20);
  let bad = 0;
  const result = await autocannon({
    url: BASE + opts.path,
    method: opts.method || 'GET',
    headers: { 'content-type': 'application/json', ...(opts.headers || {}) },
    body: opts.body,
    duration,
    connections,
    amount: opts.amount,
    requests: opts.requests,
    expectBody: undefined,
  });
  bad = result.non2xx + result.errors + result.timeouts;
  const row = {
    scenario: name,
    'req/s': Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    requests: result.requests.total,
    non2xx_or_errors: bad,
    peak_rss_mb: Math.round(rssMb(pid).peak),
  };
  return row;
}

/** Latency of sequential calls of an async function (for heavier, non-HTTP-loop measurements). */
async function timeSequential(n, fn) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const pct = (p) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))];
  return {
    n,
    p50_ms: +pct(50).toFixed(1),
    p99_ms: +pct(99).toFixed(1),
    max_ms: +samples[samples.length - 1].toFixed(1),
  };
}

/**
 * Runs a bench helper script (`scripts/bench/<script>`, in-process on dist/) as a child: the job as
 * JSON on its stdin, its one JSON line on stdout as the answer. No queue processors, errors only.
 */
function runChild(script, job) {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [require('node:path').join(__dirname, script)], {
      env: { ...process.env, QUEUE_PROCESSORS: 'false', LOG_LEVEL: 'error' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${script} exited ${code}`)),
    );
    child.stdin.end(JSON.stringify(job));
  });
}

module.exports = { BASE, PORT, startServer, rssMb, cli, json, benchShop, load, timeSequential, runChild };
