/* eslint-disable @typescript-eslint/no-explicit-any */
import { getQueueToken } from '@nestjs/bull';
import { getModelToken } from '@nestjs/mongoose';
import type { Queue } from 'bull';
import { Model, Types } from 'mongoose';
import { shopScope } from '../../src/common/tenancy';
import { JobRecord } from '../../src/jobs/job.schema';
import { JobsService } from '../../src/jobs/jobs.service';
import { Queues } from '../../src/queues/jobs';
import { startApp, TestApp } from '../support/app';
import { createVendor, setVendorCommission } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';
import { deliver, eventually, shopifyOrder } from '../support/webhooks';

jest.setTimeout(60_000);

describe('job resources: GET /v1/jobs/{id} (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let other: TestShop;
  const job = (id: string, s: TestShop = shop) => t.api.get(`/v1/jobs/${id}`, { token: s.token });

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'jobs');
    other = await createShop(t, 'jobs-other');
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  async function order(vendor: string, skus: string[]) {
    const o = shopifyOrder({
      financialStatus: 'paid',
      lineItems: skus.map((sku) => ({ sku, vendor, price: '25.00', quantity: 2 })),
    });
    await deliver(t, shop, 'orders/create', o);
    return { orderId: o.id as number, lineItemIds: o.line_items.map((l: any) => l.id as number) };
  }

  it('a recalculation answers its jobId; the job goes to completed with every line done', async () => {
    const v = await createVendor(t, shop, 'Job Vendor', {
      commissionType: 'percentage',
      commissionAmount: 10,
    });
    const o = await order('job vendor', ['JOB-1', 'JOB-2']);
    await setVendorCommission(t, shop, v._id, { commissionType: 'flat', commissionAmount: 3 });
    const res = await t.api.post(
      '/v1/lineitems/update',
      {
        items: o.lineItemIds.map((lineItemId: number) => ({
          lineItemId,
          orderId: o.orderId,
          recalculate: true,
        })),
      },
      { token: shop.token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ recalculateQueued: 2, jobId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    const done = await eventually(async () => {
      const j = await job(res.body.jobId);
      expect(j.body.state).toBe('completed');
      return j.body;
    });
    expect(done).toEqual({
      id: res.body.jobId,
      type: 'recalculation',
      state: 'completed',
      total: 2,
      done: 2,
      failed: 0,
      errors: [],
      createdAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    const lines = (await t.api.get(`/v1/orders/${o.orderId}?lineItems=true`, { token: shop.token })).body
      .orders;
    expect(lines.every((l: any) => l.commissionPlan === 'vendor:flat:3')).toBe(true);
    // by-SKU mode answers a job too; nothing to recalculate answers none
    const bySku = await t.api.post(
      '/v1/lineitems/update',
      { bySku: 'JOB-1', recalculate: true },
      { token: shop.token },
    );
    expect(bySku.body).toMatchObject({ recalculateQueued: 1, jobId: expect.any(String) });
    const none = await t.api.post(
      '/v1/lineitems/update',
      { bySku: 'NO-SUCH-SKU', recalculate: true },
      { token: shop.token },
    );
    expect(none.body).toMatchObject({ recalculateQueued: 0, jobId: null });
  });

  it('moves queued → running → completed or failed as its parts report, each part once', async () => {
    const jobs = t.app.get(JobsService, { strict: false });
    const scope = shopScope(shop.shopId);
    const id = await jobs.create(scope, 'recalculation', 3, 2);
    expect((await job(id)).body).toMatchObject({
      state: 'queued',
      total: 3,
      done: 0,
      failed: 0,
      finishedAt: null,
    });
    await jobs.partStarted(scope, id);
    expect((await job(id)).body.state).toBe('running');
    await jobs.partFinished(scope, id, 0, { done: 2, failed: 0 });
    await jobs.partFinished(scope, id, 0, { done: 2, failed: 0 }); // a retried part
    expect((await job(id)).body).toMatchObject({ state: 'running', done: 2, failed: 0 });
    await jobs.partFinished(scope, id, 1, {
      done: 0,
      failed: 1,
      error: '1 line item(s) could not be recalculated',
    });
    expect((await job(id)).body).toMatchObject({
      state: 'failed',
      done: 2,
      failed: 1,
      errors: ['1 line item(s) could not be recalculated'],
      finishedAt: expect.any(String),
    });
  });

  it('another shop, an unknown or a malformed id → 404; no token → 401', async () => {
    const id = await t.app
      .get(JobsService, { strict: false })
      .create(shopScope(shop.shopId), 'recalculation', 1, 1);
    expect((await job(id, other)).status).toBe(404);
    expect((await job(id, other)).body).toEqual({ error: 'Job not found' });
    expect((await job(new Types.ObjectId().toHexString())).status).toBe(404);
    expect((await job('not-an-id')).status).toBe(404);
    expect((await t.api.get(`/v1/jobs/${id}`)).status).toBe(401);
  });

  it('Redis refusing the parts: 503 with Retry-After, and the job reads failed', async () => {
    await createVendor(t, shop, 'Down Vendor', { commissionType: 'percentage', commissionAmount: 5 });
    const o = await order('down vendor', ['DOWN-1']);
    const queue = t.app.get<Queue>(getQueueToken(Queues.Recalculation), { strict: false });
    const failToQueue = jest.spyOn(t.app.get(JobsService, { strict: false }), 'failToQueue');
    jest
      .spyOn(queue, 'addBulk')
      .mockRejectedValueOnce(new Error("Stream isn't writeable and enableOfflineQueue options is false"));
    const res = await t.api.post(
      '/v1/lineitems/update',
      { items: [{ lineItemId: o.lineItemIds[0], orderId: o.orderId, recalculate: true }] },
      { token: shop.token },
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body).toEqual({ error: expect.any(String), errorId: expect.any(String) });
    expect(failToQueue).toHaveBeenCalledTimes(1);
    const jobId = failToQueue.mock.calls[0][1];
    expect((await job(jobId)).body).toMatchObject({
      state: 'failed',
      total: 1,
      errors: [expect.stringContaining('could not be queued')],
      finishedAt: expect.any(String),
    });
  });

  it('retention deletes job records finished before the retention period, and only those', async () => {
    const jobs = t.app.get(JobsService, { strict: false });
    const scope = shopScope(shop.shopId);
    const old = await jobs.create(scope, 'recalculation', 1, 1);
    const recent = await jobs.create(scope, 'recalculation', 1, 1);
    const running = await jobs.create(scope, 'recalculation', 1, 1);
    await jobs.partFinished(scope, old, 0, { done: 1, failed: 0 });
    await jobs.partFinished(scope, recent, 0, { done: 1, failed: 0 });
    const model = t.app.get<Model<JobRecord>>(getModelToken(JobRecord.name), { strict: false });
    await model.collection.updateOne(
      { _id: new Types.ObjectId(old) },
      { $set: { finishedAt: new Date(Date.now() - 31 * 24 * 3600_000) } },
    );
    expect(await jobs.purgeFinished()).toBeGreaterThanOrEqual(1);
    expect((await job(old)).status).toBe(404);
    expect((await job(recent)).body.state).toBe('completed');
    expect((await job(running)).body.state).toBe('queued');
  });
});
