import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { type ShopScope, shopScope } from '../common/tenancy';
import { EventSink } from '../event-port/event-sink';
import { toPayoutRunResponse } from './payout-run.mapper';
import type { PayoutRun } from './payout-run.schema';
import { PayoutRunsRepository } from './payout-runs.repository';
import { SystemPayoutRunsRepository } from './system-payout-runs.repository';

/**
 * `payout_run.completed` (DESIGN §11, §15) with the run as GET /v1/payouts/runs/{id} shows it. The
 * completing write marks it pending (`eventPendingAt`); the key is the run id, so a repeat records
 * one event; a crash before it is recorded leaves the mark for the events sweeper's finisher.
 */
@Injectable()
export class PayoutRunEvents implements OnModuleInit {
  private readonly logger = new Logger('PayoutRunEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly runs: PayoutRunsRepository,
    private readonly system: SystemPayoutRunsRepository,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'payout_run', finish: (before, limit) => this.finish(before, limit) });
  }

  /** Never throws: the run is complete whatever happens to its event. */
  async completed(scope: ShopScope, run: PayoutRun): Promise<void> {
    try {
      await this.emit(scope, run);
    } catch (err) {
      this.logger.error({ err: (err as Error)?.message, runId: String(run._id) }, 'Run event not emitted');
    }
  }

  async finish(before: Date, limit: number): Promise<number> {
    const runs = await this.system.eventPending(before, limit);
    for (const r of runs) await this.emit(shopScope(String(r.shopId)), r);
    return runs.length;
  }

  private async emit(scope: ShopScope, run: PayoutRun): Promise<void> {
    const at = run.completedAt ?? new Date();
    const recorded = await this.sink.emit(scope, [
      {
        key: `payout_run.completed:${String(run._id)}`,
        type: 'payout_run.completed',
        createdAt: at,
        object: { ...toPayoutRunResponse(run) },
      },
    ]);
    if (recorded && run.eventPendingAt) await this.runs.eventRecorded(scope, run._id, run.eventPendingAt);
  }
}
