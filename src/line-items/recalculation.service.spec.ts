import type { VendorTally } from './vendor-tally.service';
import { Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import type { Queue } from 'bull';
import { asReal, FakeQueue, FakeShops, SHOP } from '../../test/fakes/fake';
import { FakeJobs } from '../../test/fakes/jobs.fake';
import {
  FakeLineItemsRepository,
  FakeSummaries,
  FakeVendorTally,
  lineItem,
} from '../../test/fakes/line-items.fake';
import type { JobsService } from '../jobs/jobs.service';
import { FakeSkuCommissionsRepository, FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import { Jobs } from '../queues/jobs';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import type { LineItem } from './line-item.schema';
import { LineItemPricing } from './line-item-pricing';
import type { PricingInputsRepository } from './pricing-inputs.repository';
import { FakePricingInputs } from '../../test/fakes/pricing-inputs.fake';
import type { LineItemsRepository } from './line-items.repository';
import type { OrderSummaryRefresher } from './order-summary.refresher';
import { RECALC_JOB_SIZE, RecalculationService } from './recalculation.service';

describe('RecalculationService (repositories faked)', () => {
  beforeAll(() => Logger.overrideLogger(false)); // a part failing for good is logged: expected here
  let lineItems: FakeLineItemsRepository;
  let vendors: FakeVendorsRepository;
  let skus: FakeSkuCommissionsRepository;
  let shops: FakeShops;
  let summaries: FakeSummaries;
  let queue: FakeQueue;
  let jobs: FakeJobs;
  let service: RecalculationService;

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    vendors = new FakeVendorsRepository();
    skus = new FakeSkuCommissionsRepository();
    shops = new FakeShops();
    summaries = new FakeSummaries();
    queue = new FakeQueue();
    jobs = new FakeJobs();
    const pricing = new LineItemPricing(
      asReal<PricingInputsRepository>(new FakePricingInputs(shops, vendors, skus)),
    );
    service = new RecalculationService(
      asReal<LineItemsRepository>(lineItems),
      pricing,
      asReal<OrderSummaryRefresher>(summaries),
      asReal<JobsService>(jobs),
      asReal<Queue>(queue),
      asReal<VendorTally>(new FakeVendorTally()),
    );
  });

  /** A stored line of 100 sales (after discount), as ingestion or a person left it. */
  const stored = (orderId: number, extra: Partial<LineItem>) =>
    lineItems.add(
      lineItem({
        orderId,
        lineItemId: orderId * 10,
        vendorName: 'acme',
        quantity: 2,
        sales: 100,
        salesAfterDiscount: 100,
        payout: 100,
        balance: 100,
        ...extra,
      }),
    )[0];

  it('recomputes commission and payout with the current vendor rate, SKU record and settings', async () => {
    const [acme] = vendors.add(vendor('acme', { commissionType: 'percentage', commissionAmount: 10 }));
    shops.settings = { taxOnCommissionRate: 18 };
    skus.add('JKT', { commissionType: 'flat', commissionAmount: 4, costOfGoods: 30 });
    const plain = stored(1, { vendorId: acme._id, deduction: 2 });
    const withSku = stored(2, { vendorId: acme._id, sku: 'JKT' });

    expect(await service.recalculate(SHOP, [String(plain._id), String(withSku._id)])).toEqual({
      recalculated: 2,
      skipped: 0,
    });
    // 10% of 100 = 10, tax on it 1.8; the hand-written deduction is kept
    expect(lineItems.get(plain._id)).toMatchObject({
      commission: 10,
      commissionPlan: 'vendor:percentage:10',
      taxOnCommissions: 1.8,
      payout: 86.2,
      balance: 86.2,
    });
    // the SKU record wins: flat 4 × 2, and its cost of goods × quantity
    expect(lineItems.get(withSku._id)).toMatchObject({
      commission: 8,
      commissionPlan: 'sku:flat:4',
      costOfItem: 60,
      taxOnCommissions: 1.44,
      payout: 90.56,
    });
    expect(summaries.refreshed).toEqual([[1, 2]]);
  });

  it('assigns a line whose vendor now exists; skips frozen lines; writes only what changes', async () => {
    const unassigned = stored(1, { vendorId: null });
    const frozen = stored(2, { frozen: true, commission: 99 });
    const [acme] = vendors.add(vendor('acme', { commissionAmount: 0 }));
    const unchanged = stored(3, { vendorId: acme._id, commissionPlan: 'vendor:percentage:0' });

    const res = await service.recalculate(
      SHOP,
      [unassigned, frozen, unchanged].map((l) => String(l._id)),
    );
    expect(res).toEqual({ recalculated: 2, skipped: 1 });
    expect(lineItems.get(unassigned._id).vendorId).toEqual(acme._id);
    expect(lineItems.get(frozen._id).commission).toBe(99);
    expect(lineItems.guardedWrites.flat().map((w) => String(w.id))).toEqual([String(unassigned._id)]);
    expect(summaries.refreshed).toEqual([[1]]);
  });

  it('a line paid while recalculating makes the job retry from a fresh read', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const li = stored(1, { vendorId: acme._id });
    lineItems.beforeGuardedWrite = () => Object.assign(lineItems.get(li._id), { frozen: true });
    await expect(service.recalculate(SHOP, [String(li._id)])).rejects.toBeInstanceOf(
      ConcurrentLineItemChange,
    );
  });

  it('queues big recalculations as one job resource in parts of RECALC_JOB_SIZE ids, each id once', async () => {
    const ids = Array.from({ length: RECALC_JOB_SIZE + 1 }, () => new Types.ObjectId());
    const jobId = await service.queueRecalculation(SHOP, [...ids, ids[0]]);
    const parts = queue.named(Jobs.Recalculate) as Array<{
      shopId: string;
      lineItemIds: string[];
      jobId: string;
      part: number;
    }>;
    expect(parts.map((j) => j.lineItemIds.length)).toEqual([RECALC_JOB_SIZE, 1]);
    expect(parts.every((j) => j.shopId === SHOP.shopId && j.jobId === jobId)).toBe(true);
    expect(parts.map((j) => j.part)).toEqual([0, 1]);
    expect(jobs.jobs.get(jobId!)).toMatchObject({ state: 'queued', total: RECALC_JOB_SIZE + 1, parts: 2 });
    expect(await service.queueRecalculation(SHOP, [])).toBeNull();
    expect(queue.jobs).toHaveLength(2);
  });

  it('parts report to their job resource once each, even when retried; the last one settles it', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const a = stored(1, { vendorId: acme._id });
    const b = stored(2, { vendorId: acme._id });
    const jobId = (await service.queueRecalculation(SHOP, [a._id, b._id]))!;
    const data = { shopId: SHOP.shopId, lineItemIds: [String(a._id), String(b._id)], jobId, part: 0 };
    await service.runPart(SHOP, data, { final: false });
    await service.runPart(SHOP, data, { final: false }); // a retry of a part that already reported
    expect(jobs.jobs.get(jobId)).toMatchObject({ state: 'completed', total: 2, done: 2, failed: 0 });
  });

  it('a part failing on its last attempt fails the job with its error; earlier attempts only retry', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const li = stored(1, { vendorId: acme._id });
    const jobId = (await service.queueRecalculation(SHOP, [li._id]))!;
    lineItems.beforeGuardedWrite = () => Object.assign(lineItems.get(li._id), { frozen: true });
    const data = { shopId: SHOP.shopId, lineItemIds: [String(li._id)], jobId, part: 0 };
    await expect(service.runPart(SHOP, data, { final: false })).rejects.toThrow();
    expect(jobs.jobs.get(jobId)).toMatchObject({ state: 'running', failed: 0 });
    lineItems.get(li._id).frozen = false;
    await expect(service.runPart(SHOP, data, { final: true })).rejects.toThrow();
    expect(jobs.jobs.get(jobId)).toMatchObject({
      state: 'failed',
      done: 0,
      failed: 1,
      errors: [expect.stringContaining('errorId')],
    });
  });
});
