/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * A measurement, not a check (skipped unless STATEMENT_MEMORY_ROWS is set): the app process's memory
 * while it answers the JSON statement of a batch of that many rows (inserted directly), read by the
 * client as a stream. Prints one STATEMENT line. Run alone, e.g.
 *   STATEMENT_MEMORY_ROWS=20000 NODE_OPTIONS=--expose-gc npx jest --selectProjects e2e \
 *     --maxWorkers=1 test/e2e/statements-memory.e2e-spec.ts
 * Figures (2-core machine shared with other work; peaks over the process's level before the request,
 * sampled every 5 ms, so garbage not yet collected counts): before the JSON was streamed, 20,001 rows
 * → RSS +104 MB, heap +80 MB; streamed, 20,001 rows → RSS +25 MB, heap +61 MB, and 60,001 rows →
 * RSS +2 MB, heap +25 MB (the body: the same 10,470,191 bytes at 20,001 rows both ways).
 */
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { LineItem } from '../../src/line-items/line-item.schema';
import { startApp, TestApp } from '../support/app';
import { createShop } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';

const N = Number(process.env.STATEMENT_MEMORY_ROWS ?? 0);
const measure = N > 0 ? it : it.skip;

describe('statement memory (a measurement)', () => {
  let t: TestApp;
  afterAll(() => t?.close());
  measure(
    'the app’s peak memory while it streams one JSON statement',
    async () => {
      t = await startApp();
      const shop = await createShop(t, 'stmt-mem');
      const v = await createVendor(t, shop, 'Mem Vendor');
      await seedOrder(t, shop, {
        createdAt: new Date('2026-03-01T10:00:00Z'),
        lines: [{ vendor: v.vendorName, price: 12.34 }],
      });
      const trig = await t.api.post(
        '/v1/payouts/batches',
        { until: '2026-03-31', vendorId: v._id },
        { token: shop.token },
      );
      const batchId = trig.body.batchIds[0];
      for (;;) {
        const r = await t.api.get(`/v1/payouts/batches/${batchId}`, { token: shop.token });
        if (r.body.status === 'completed') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      const model = t.app.get<Model<LineItem>>(getModelToken(LineItem.name));
      const one = await model
        .findOne({ shopId: new Types.ObjectId(shop.shopId), batchId })
        .lean<any>()
        .exec();
      for (let i = 0; i < N; i += 2000) {
        const docs = Array.from({ length: Math.min(2000, N - i) }, (_, j) => ({
          ...one,
          _id: new Types.ObjectId(),
          lineItemId: one.lineItemId + i + j + 1,
          name: `Item ${i + j} with a title of a usual length`,
        }));
        await model.collection.insertMany(docs);
      }
      global.gc?.();
      await new Promise((r) => setTimeout(r, 200));
      const base = process.memoryUsage();
      let peakHeap = base.heapUsed;
      let peakRss = base.rss;
      const timer = setInterval(() => {
        const m = process.memoryUsage();
        peakHeap = Math.max(peakHeap, m.heapUsed);
        peakRss = Math.max(peakRss, m.rss);
      }, 5);
      const started = performance.now();
      const res = await fetch(`${t.api.baseUrl}/v1/payouts/batches/${batchId}/statement`, {
        headers: { 'x-access-token': shop.token },
      });
      // read the body as a stream (the client side holds nothing either)
      let bytes = 0;
      for await (const chunk of res.body as any) bytes += chunk.length;
      const ms = performance.now() - started;
      clearInterval(timer);
      const mb = (n: number) => (n / 1048576).toFixed(1);
      console.log(
        `STATEMENT rows=${N + 1} bytes=${bytes} ms=${ms.toFixed(0)} peakHeapDeltaMB=${mb(peakHeap - base.heapUsed)} peakRssDeltaMB=${mb(peakRss - base.rss)}`,
      );
    },
    600_000,
  );
});
