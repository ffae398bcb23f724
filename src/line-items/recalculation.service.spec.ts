import { Types } from 'mongoose';
import type { Queue } from 'bull';
import { asReal, FakeQueue, FakeShops, SHOP } from '../../test/fakes/fake';
import { FakeLineItemsRepository, FakeSummaries, lineItem } from '../../test/fakes/line-items.fake';
import { FakeSkuCommissionsRepository, FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import type { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import { Jobs } from '../queues/jobs';
import type { ShopsService } from '../shops/shops.service';
import type { VendorsRepository } from '../vendors/vendors.repository';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import type { LineItem } from './line-item.schema';
import { LineItemPricing } from './line-item-pricing';
import type { LineItemsRepository } from './line-items.repository';
import type { OrderSummaryRefresher } from './order-summary.refresher';
import { RECALC_JOB_SIZE, RecalculationService } from './recalculation.service';

describe('RecalculationService (repositories faked)', () => {
  let lineItems: FakeLineItemsRepository;
  let vendors: FakeVendorsRepository;
  let skus: FakeSkuCommissionsRepository;
  let shops: FakeShops;
  let summaries: FakeSummaries;
  let queue: FakeQueue;
  let service: RecalculationService;

  beforeEach(() => {
    lineItems = new FakeLineItemsRepository();
    vendors = new FakeVendorsRepository();
    skus = new FakeSkuCommissionsRepository();
    shops = new FakeShops();
    summaries = new FakeSummaries();
    queue = new FakeQueue();
    const pricing = new LineItemPricing(
      asReal<ShopsService>(shops),
      asReal<VendorsRepository>(vendors),
      asReal<SkuCommissionsRepository>(skus),
    );
    service = new RecalculationService(
      asReal<LineItemsRepository>(lineItems),
      pricing,
      asReal<OrderSummaryRefresher>(summaries),
      asReal<Queue>(queue),
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

  it('queues big recalculations in jobs of RECALC_JOB_SIZE ids, each id once', async () => {
    const ids = Array.from({ length: RECALC_JOB_SIZE + 1 }, () => new Types.ObjectId());
    await service.queueRecalculation(SHOP, [...ids, ids[0]]);
    const jobs = queue.named(Jobs.Recalculate) as Array<{ shopId: string; lineItemIds: string[] }>;
    expect(jobs.map((j) => j.lineItemIds.length)).toEqual([RECALC_JOB_SIZE, 1]);
    expect(jobs.every((j) => j.shopId === SHOP.shopId)).toBe(true);
    await service.queueRecalculation(SHOP, []);
    expect(queue.jobs).toHaveLength(2);
  });
});
