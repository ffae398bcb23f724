import type { VendorTally } from './vendor-tally.service';
import { Types } from 'mongoose';
import { FakeJobs } from '../../test/fakes/jobs.fake';
import type { JobsService } from '../jobs/jobs.service';
import type { Queue } from 'bull';
import { fakeAuditTrail } from '../../test/fakes/audit.fake';
import { asReal, FakeQueue, FakeShops, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import {
  FakeLineItemsRepository,
  FakeSummaries,
  FakeVendorTally,
  lineItem,
} from '../../test/fakes/line-items.fake';
import { FakeSkuCommissionsRepository, FakeVendorsRepository } from '../../test/fakes/vendors.fake';
import type { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import { ValidationError } from '../common/errors';
import { Jobs, type SkuUpdateJobData } from '../queues/jobs';
import type { UpdateLineItemsDto } from './dto/line-items-update.dto';
import { LineItemPricing } from './line-item-pricing';
import type { PricingInputsRepository } from './pricing-inputs.repository';
import { FakePricingInputs } from '../../test/fakes/pricing-inputs.fake';
import { LineItemUpdatesService } from './line-item-updates.service';
import type { LineItemsRepository } from './line-items.repository';
import type { OrderSummaryRefresher } from './order-summary.refresher';
import { RecalculationService } from './recalculation.service';
import { SkuUpdateRunner } from './sku-update.runner';

describe('LineItemUpdatesService (repositories faked)', () => {
  let lineItems: FakeLineItemsRepository;
  let skus: FakeSkuCommissionsRepository;
  let summaries: FakeSummaries;
  let queue: FakeQueue;
  let updates: LineItemUpdatesService;
  let jobs: FakeJobs;
  let runner: SkuUpdateRunner;

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    skus = new FakeSkuCommissionsRepository();
    summaries = new FakeSummaries();
    queue = new FakeQueue();
    const pricing = new LineItemPricing(
      asReal<PricingInputsRepository>(
        new FakePricingInputs(new FakeShops(), new FakeVendorsRepository(), skus),
      ),
    );
    const recalculation = new RecalculationService(
      asReal<LineItemsRepository>(lineItems),
      pricing,
      asReal<OrderSummaryRefresher>(summaries),
      asReal<JobsService>((jobs = new FakeJobs())),
      asReal<Queue>(queue),
      asReal<VendorTally>(new FakeVendorTally()),
    );
    updates = new LineItemUpdatesService(
      asReal<LineItemsRepository>(lineItems),
      asReal<SkuCommissionsRepository>(skus),
      recalculation,
      asReal<OrderSummaryRefresher>(summaries),
      fakeAuditTrail(new FixedClock()),
      asReal<VendorTally>(new FakeVendorTally()),
    );
    runner = new SkuUpdateRunner(
      asReal<LineItemsRepository>(lineItems),
      updates,
      recalculation,
      asReal<OrderSummaryRefresher>(summaries),
      asReal<JobsService>(jobs),
    );
  });

  const update = (body: Partial<UpdateLineItemsDto>) => updates.update(SHOP, body as UpdateLineItemsDto);

  it('writes rounded figures; a written payout moves balance and payoutStatus with it', async () => {
    const [li] = lineItems.add(lineItem({ orderId: 1, lineItemId: 11, payout: 40, balance: 30, paid: 10 }));
    const res = await update({
      items: [{ orderId: 1, lineItemId: 11, fields: { payout: 50.005, deduction: 2.5 } }],
    });
    expect(res).toEqual({
      success: true,
      matched: 1,
      updated: 1,
      recalculateQueued: 0,
      jobId: null,
      results: [{ orderId: 1, lineItemId: 11, status: 'updated' }],
      errors: [],
    });
    expect(lineItems.get(li._id)).toMatchObject({
      payout: 50.01,
      deduction: 2.5,
      balance: 40.01,
      payoutStatus: 'partial',
    });
    expect(summaries.refreshed).toEqual([[1]]);
  });

  it('skips frozen and unknown lines (and other shops’ lines) and lists them as errors', async () => {
    lineItems.add(
      lineItem({ orderId: 1, lineItemId: 11, frozen: true }),
      lineItem({ orderId: 1, lineItemId: 12, shopId: new Types.ObjectId(OTHER_SHOP.shopId) }),
    );
    const res = await update({
      items: [
        { orderId: 1, lineItemId: 11, fields: { deduction: 1 } },
        { orderId: 1, lineItemId: 12, fields: { deduction: 1 } },
      ],
    });
    expect(res.success).toBe(false);
    expect(res.errors).toEqual([
      { orderId: 1, lineItemId: 11, error: 'Line item is frozen (paid out) and was skipped' },
      { orderId: 1, lineItemId: 12, error: 'Line item not found' },
    ]);
    expect(lineItems.guardedWrites).toEqual([]);
  });

  it('reports a line the payout engine froze between the read and the write as skipped', async () => {
    const [li] = lineItems.add(lineItem({ orderId: 1, lineItemId: 11, payout: 5, balance: 5 }));
    lineItems.beforeGuardedWrite = () =>
      Object.assign(lineItems.get(li._id), { frozen: true, paid: 5, balance: 0 });
    const res = await update({ items: [{ orderId: 1, lineItemId: 11, fields: { deduction: 1 } }] });
    expect(res.errors).toEqual([
      { orderId: 1, lineItemId: 11, error: 'Line item is frozen (paid out) and was skipped' },
    ]);
    expect(lineItems.get(li._id).deduction).toBe(0);
  });

  it('a costOfItem sets the SKU record’s per-unit cost; recalculate queues one job for the line', async () => {
    const [li] = lineItems.add(lineItem({ orderId: 1, lineItemId: 11, sku: 'TEE', quantity: 4 }));
    const res = await update({
      items: [{ orderId: 1, lineItemId: 11, fields: { costOfItem: 10 }, recalculate: true }],
    });
    expect(res.results).toEqual([{ orderId: 1, lineItemId: 11, status: 'updated_and_recalculate_queued' }]);
    expect(skus.records.get('TEE')).toMatchObject({
      costOfGoods: 2.5,
      commissionType: null,
      commissionAmount: null,
    });
    expect(queue.named(Jobs.Recalculate)).toEqual([
      { shopId: SHOP.shopId, lineItemIds: [String(li._id)], jobId: expect.any(String), part: 0 },
    ]);
  });

  it('by SKU: writes every live line with the SKU, the cost per unit from the newest one', async () => {
    lineItems.add(
      lineItem({
        orderId: 1,
        lineItemId: 11,
        sku: 'MUG',
        quantity: 1,
        orderCreatedAt: new Date('2026-11-01'),
      }),
      lineItem({
        orderId: 2,
        lineItemId: 21,
        sku: 'MUG',
        quantity: 2,
        orderCreatedAt: new Date('2026-11-02'),
      }),
      lineItem({ orderId: 3, lineItemId: 31, sku: 'MUG', frozen: true }),
    );
    const res = await update({ bySku: ' MUG ', fields: { costOfItem: 9 } });
    expect(res).toMatchObject({ success: false, updated: 2, recalculateQueued: 0 });
    expect(res.errors).toEqual([
      { orderId: 3, lineItemId: 31, error: 'Line item is frozen (paid out) and was skipped' },
    ]);
    expect(lineItems.docs.map((d) => d.costOfItem)).toEqual([9, 9, 0]);
    expect(skus.records.get('MUG')?.costOfGoods).toBe(4.5);
    expect(summaries.refreshed).toEqual([[1, 2]]);
  });

  it('by SKU over 100 lines: writes and answers the first 100, a job writes the rest page by page', async () => {
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < 2350; i++)
      lineItems.add(
        lineItem({
          orderId: 1000 + i,
          lineItemId: 5000 + i,
          sku: 'BIG',
          quantity: i === 2349 ? 4 : 1,
          orderCreatedAt: new Date(base + i * 60_000),
          frozen: i === 3 || i === 1500,
        }),
      );
    const res = await update({ bySku: 'BIG', fields: { deduction: 1.25, costOfItem: 10 } });
    expect(res).toMatchObject({ success: false, matched: 2350, updated: 99, recalculateQueued: 0 });
    expect(res.results).toHaveLength(99);
    expect(res.errors).toEqual([
      { orderId: 1003, lineItemId: 5003, error: 'Line item is frozen (paid out) and was skipped' },
    ]);
    expect(res.jobId).toEqual(expect.any(String));
    // only the first 100 written before the answer; no SKU cost yet (the newest line is the job's)
    expect(lineItems.docs.filter((d) => d.deduction === 1.25)).toHaveLength(99);
    expect(skus.records.get('BIG')).toBeUndefined();
    const [data] = queue.named(Jobs.SkuUpdate) as SkuUpdateJobData[];
    expect(data).toMatchObject({ jobId: res.jobId, sku: 'BIG', recalcIds: [], recalculate: false });
    expect(jobs.jobs.get(res.jobId!)).toMatchObject({ total: 2250, parts: 1 });

    await runner.run(SHOP, data, { final: true });
    expect(lineItems.docs.filter((d) => d.deduction === 1.25)).toHaveLength(2348);
    expect(lineItems.docs.filter((d) => d.frozen).every((d) => d.deduction !== 1.25)).toBe(true);
    expect(skus.records.get('BIG')?.costOfGoods).toBe(2.5); // 10 ÷ 4, from the newest line
    expect(jobs.jobs.get(res.jobId!)).toMatchObject({ state: 'completed', done: 2250, failed: 0 });
  });

  it.each([
    [{}],
    [{ items: [], bySku: 'X' }],
    [{ items: [{ orderId: 1, lineItemId: 1 }] }],
    [{ items: [{ orderId: 1, lineItemId: 1, recalculate: true }], recalculate: true }],
    [{ bySku: '  ', recalculate: true }],
    [{ bySku: 'X' }],
  ])('refuses %j with a 422 before touching anything', async (body) => {
    await expect(update(body as Partial<UpdateLineItemsDto>)).rejects.toBeInstanceOf(ValidationError);
    expect(lineItems.guardedWrites).toEqual([]);
  });
});
