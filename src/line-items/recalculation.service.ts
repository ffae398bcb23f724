import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { payoutState } from '../common/money';
import { ShopScope, toObjectId } from '../common/tenancy';
import { jobEntry, Jobs, Queues } from '../queues/jobs';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import { LineItemPricing, reprice } from './line-item-pricing';
import { isPayoutRow } from './line-item.schema';
import type { GuardedSet } from './line-item-views';
import { LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';

/** Ids (or orders) per job: big by-SKU updates fan out into several jobs. */
export const RECALC_JOB_SIZE = 1000;

/**
 * Recalculation of line items (queued) and the summary refreshes that too many orders at once
 * leave to the queue. The only producer of the recalculation queue.
 */
@Injectable()
export class RecalculationService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly pricing: LineItemPricing,
    private readonly summaries: OrderSummaryRefresher,
    @InjectQueue(Queues.Recalculation) private readonly queue: Queue,
  ) {}

  /** Queues the recalculation of these line items (the answer confirms queuing, not completion). */
  async queueRecalculation(scope: ShopScope, ids: Types.ObjectId[]): Promise<void> {
    const unique = [...new Set(ids.map(String))];
    const jobs = chunks(unique).map((lineItemIds) =>
      jobEntry(Jobs.Recalculate, { shopId: scope.shopId, lineItemIds }),
    );
    if (jobs.length > 0) await this.queue.addBulk(jobs);
  }

  /** Queues the summary refresh of these orders. */
  async queueSummaryRefresh(scope: ShopScope, orderIds: number[]): Promise<void> {
    const jobs = chunks(orderIds).map((ids) =>
      jobEntry(Jobs.RefreshSummaries, { shopId: scope.shopId, orderIds: ids }),
    );
    await this.queue.addBulk(jobs);
  }

  /**
   * Re-runs the commission and payout calculation (DESIGN §6) on these line items with the current
   * shop settings, vendor and SKU records; assigns still-unassigned lines whose vendor now exists.
   * Frozen line items are skipped. Idempotent: a retried job recomputes the same figures.
   */
  async recalculate(scope: ShopScope, ids: string[]): Promise<{ recalculated: number; skipped: number }> {
    const oids = ids.map((id) => toObjectId(id)).filter((x): x is Types.ObjectId => x !== null);
    const lines = await this.lineItems.findByIds(scope, oids);
    const live = lines.filter((l) => !l.frozen);
    const ctx = await this.pricing.load(scope, {
      vendorNames: live.map((l) => l.vendorName),
      vendorIds: live.map((l) => l.vendorId),
      skus: live.map((l) => l.sku),
    });
    const writes: GuardedSet[] = [];
    for (const l of live) {
      const { vendor, figures: f } = reprice(ctx, l);
      const set: Record<string, unknown> = {
        vendorId: vendor?._id ?? null,
        commission: f.commission,
        commissionPlan: f.commissionPlan,
        costOfItem: f.costOfItem,
        taxOnCommissions: f.taxOnCommissions,
        tcs: f.tcs,
        totalGlobalDeductions: f.totalGlobalDeductions,
        payout: f.payout,
        ...payoutState(f.payout, l.paid),
        inPayouts: isPayoutRow({
          vendorId: vendor?._id,
          financialStatus: l.financialStatus,
          batchId: l.batchId,
        }),
      };
      // Only lines whose figures change are written (and only their orders' summaries refreshed).
      const unchanged = Object.entries(set).every(
        ([k, v]) => String(v) === String((l as unknown as Record<string, unknown>)[k]),
      );
      if (!unchanged) writes.push({ id: l._id, guard: { frozen: false, paid: l.paid }, set });
    }
    if ((await this.lineItems.applyGuardedSets(scope, writes)) < writes.length) {
      throw new ConcurrentLineItemChange('line items were paid or frozen during recalculation');
    }
    const changed = new Set(writes.map((w) => String(w.id)));
    const before = new Map(live.map((l) => [String(l._id), String(l.vendorId)]));
    await this.summaries.refresh(
      scope,
      live.filter((l) => changed.has(String(l._id))).map((l) => l.orderId),
      { vendorsChanged: writes.some((w) => String(w.set.vendorId) !== before.get(String(w.id))) },
    );
    return { recalculated: live.length, skipped: lines.length - live.length };
  }

  refreshSummaries(scope: ShopScope, orderIds: number[]): Promise<void> {
    return this.summaries.refresh(scope, orderIds);
  }
}

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += RECALC_JOB_SIZE) out.push(values.slice(i, i + RECALC_JOB_SIZE));
  return out;
}
