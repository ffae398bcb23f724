// The `seller-tax` group's tally step (issue 32): its rows are seeded straight into line_items marked
// for the tally, as ingestion stores them (`tallyDirt: 1`); this child process counts them the way the
// ingestion worker's tally does (VendorTally.settleFully per vendor, in-process, on the built app),
// so vendor_balances gets the sums and the quarter marks a real ingestion leaves. Reads
// {shopId, vendorIds} on stdin; prints one JSON line {vendors, ms} on stdout.
const { join } = require('node:path');

const DIST = join(__dirname, '..', '..', 'dist');
const CONCURRENCY = Number(process.env.BENCH_SETTLE_CONCURRENCY || 8);

async function main() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const job = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  require(join(DIST, 'config/dotenv'));
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require(join(DIST, 'app.module'));
  const { shopScope } = require(join(DIST, 'common/tenancy'));
  const { VendorTally } = require(join(DIST, 'line-items/vendor-tally.service'));
  const app = await NestFactory.createApplicationContext(AppModule.forRole('cli'), { logger: ['error'] });
  try {
    const tally = app.get(VendorTally, { strict: false });
    const scope = shopScope(job.shopId);
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < job.vendorIds.length) {
          const v = job.vendorIds[next++];
          if (!(await tally.settleFully(scope, [v])))
            throw new Error(`vendor ${v}: the tally did not settle`);
        }
      }),
    );
    process.stdout.write(`${JSON.stringify({ vendors: job.vendorIds.length, ms: Date.now() - t0 })}\n`);
  } finally {
    await app.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
