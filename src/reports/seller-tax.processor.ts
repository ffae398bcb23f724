import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Queue } from 'bull';
import { SystemTaxMarksRepository } from '../balances/system-tax-marks.repository';
import { parseQuarterKey } from '../common/dates/quarter';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { SellerTaxSummaries } from './seller-tax-summaries.service';

/** Marked vendors read per sweep (a larger backlog is finished by the next sweeps). */
const SWEEP_VENDORS = 1000;

/**
 * The seller tax refresher (repeatable, every sweep period, and once at start): recomputes the
 * quarters the tally marked, shop by shop and year by year, so a report finds little left to
 * recompute itself. A report refreshes its own year first in any case: this only keeps it quick.
 */
@Processor(Queues.Maintenance)
export class SellerTaxMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly summaries: SellerTaxSummaries,
    private readonly marks: SystemTaxMarksRepository,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the seller tax refresher', 'SellerTaxRefresher');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.RefreshSellerTax, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<number> {
    return this.sweepNow();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.RefreshSellerTax })
  sweep(): Promise<number> {
    return this.sweepNow();
  }

  /** One sweep (also called directly by tests); answers how many (vendor, quarter) it recomputed. */
  async sweepNow(): Promise<number> {
    const years = new Map<string, Set<number>>();
    for (const m of await this.marks.marked(SWEEP_VENDORS)) {
      const shop = years.get(String(m.shopId)) ?? new Set<number>();
      for (const key of Object.keys(m.taxDirt ?? {})) {
        const q = parseQuarterKey(key);
        if (q) shop.add(q.year);
      }
      years.set(String(m.shopId), shop);
    }
    let refreshed = 0;
    for (const [shopId, shopYears] of years) {
      for (const year of shopYears) {
        try {
          refreshed += await this.summaries.refresh(shopScope(shopId), year);
        } catch (err) {
          this.logger.warn(
            { shopId, year, err: (err as Error)?.message },
            'Could not refresh seller tax quarters',
          );
        }
      }
    }
    return refreshed;
  }
}
