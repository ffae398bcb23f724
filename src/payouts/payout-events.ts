import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { toPayoutAdjustmentResponse } from '../adjustments/payout-adjustment.mapper';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { OperationContexts } from '../common/context/operation-context';
import { crashPoint } from '../common/faults/crash-point';
import { type ShopScope, shopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { toPayoutBatchResponse } from './payout.mapper';
import type { PayoutBatch } from './payout-batch.schema';
import { SystemPayoutBatchesRepository } from './system-payout-batches.repository';

/**
 * The outbound events of a settled batch (DESIGN §11): `payout_batch.paid` or
 * `payout_batch.carried_forward` with the batch as GET /v1/payouts/batches/{id} shows it, and one
 * `payout_adjustment.paid` per adjustment it paid. Keys are the batch (and adjustment) ids, so a
 * resumed run that reaches the end again records nothing new. The settling write marks the events
 * pending (`eventPendingAt`); a crash before they are recorded leaves the mark, and the events
 * sweeper runs this class's finisher, which records them from the stored batch.
 */
@Injectable()
export class PayoutEvents implements OnModuleInit {
  private readonly logger = new Logger('PayoutEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly system: SystemPayoutBatchesRepository,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'payout_batch', finish: (before, limit) => this.finish(before, limit) });
  }

  /** Never throws: the batch is settled whatever happens to its events. */
  async batchSettled(scope: ShopScope, batch: PayoutBatch): Promise<void> {
    try {
      crashPoint(`after-change:payout_batch`);
      await this.emit(scope, batch);
    } catch (err) {
      this.logger.error(
        { err: (err as Error)?.message, batchId: String(batch._id) },
        'Batch events not emitted',
      );
    }
  }

  /** The events sweeper: settled batches whose marker is older than `before`. */
  async finish(before: Date, limit: number): Promise<number> {
    const batches = await this.system.eventPending(before, limit);
    for (const b of batches) await this.emit(shopScope(String(b.shopId)), b);
    return batches.length;
  }

  /** Records the batch's events; once recorded, clears its marker (where it still holds the settling time). */
  private async emit(scope: ShopScope, batch: PayoutBatch): Promise<void> {
    const at = batch.completedAt ?? new Date();
    const id = String(batch._id);
    const events: SourcedEvent[] = [];
    if (batch.status === 'completed') {
      events.push({
        key: `payout_batch.paid:${id}`,
        type: 'payout_batch.paid',
        createdAt: at,
        object: { ...toPayoutBatchResponse(batch) },
      });
      // One read for every adjustment the batch paid (not one per adjustment).
      for (const a of await this.adjustments.settledByBatch(scope, id, batch.vendorId)) {
        events.push({
          key: `payout_adjustment.paid:${String(a._id)}:${id}`,
          type: 'payout_adjustment.paid',
          createdAt: at,
          object: { ...toPayoutAdjustmentResponse(a) },
        });
      }
    } else if (batch.status === 'carried_forward') {
      events.push({
        key: `payout_batch.carried_forward:${id}`,
        type: 'payout_batch.carried_forward',
        createdAt: at,
        object: { ...toPayoutBatchResponse(batch) },
      });
    }
    if (!(await this.sink.emit(scope, events)) || !batch.eventPendingAt) return;
    const pendingAt = batch.eventPendingAt;
    await OperationContexts.phase('events', () => this.batches.eventsRecorded(scope, batch._id, pendingAt));
  }
}
