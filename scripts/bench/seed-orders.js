// The `vendor-scale` group's seeder (issue 30): the scale bench's orders through the real ingestion
// code in-process, without the HTTP hop, the inbox and the queue. Run as a child process on the
// built app (dist/): reads a job from stdin — {shops: [{shopId}], orders: [[shopIndex, payload]]} —
// and hands each order to WebhookProcessingService.apply('orders/create', …), the very call the
// ingestion worker makes for a claimed delivery (ingestion/webhook-inbox.service.ts), so every
// collection the worker writes (orders, line_items, order_summaries, vendor_balances through the
// tally, events) gets the same documents; only the inbox's webhook_deliveries documents are not
// written. Prints one JSON line {orders, ms} on stdout.
const { join } = require('node:path');

const DIST = join(__dirname, '..', '..', 'dist');
const CONCURRENCY = Number(process.env.BENCH_SEED_CONCURRENCY || 16);

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

async function main() {
  require(join(DIST, 'config/dotenv'));
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(join(DIST, 'app.module'));
  const { queuesReady } = require(join(DIST, 'queues/queues'));
  const { shopScope } = require(join(DIST, 'common/tenancy'));
  const { WebhookProcessingService } = require(join(DIST, 'ingestion/webhook-processing.service'));
  const { VendorTally } = require(join(DIST, 'line-items/vendor-tally.service'));

  const job = await readStdin();
  const app = await NestFactory.createApplicationContext(AppModule.forRole('cli'), { logger: ['error'] });
  try {
    await queuesReady(app);
    const processing = app.get(WebhookProcessingService, { strict: false });
    const tally = app.get(VendorTally, { strict: false });
    const scopes = job.shops.map((s) => shopScope(s.shopId));
    const t0 = Date.now();
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < job.orders.length) {
          const [n, payload] = job.orders[next++];
          const outcome = await processing.apply(scopes[n], 'orders/create', payload, new Date());
          if (!outcome.startsWith('created')) throw new Error(`order ${payload.id}: ${outcome}`);
          if (++done % 2000 === 0) process.stderr.write(`[seed] ${done}/${job.orders.length} orders\n`);
        }
      }),
    );
    // The vendors' balances as the worker's tally leaves them (settleSoon runs in this process).
    for (const [n, s] of job.shops.entries()) await tally.settleFully(scopes[n], s.vendorIds);
    process.stdout.write(`${JSON.stringify({ orders: done, ms: Date.now() - t0 })}\n`);
  } finally {
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
