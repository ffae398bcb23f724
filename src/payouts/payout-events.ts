import { Injectable, Logger } from '@nestjs/common';
import { toPayoutAdjustmentResponse } from '../adjustments/payout-adjustment.mapper';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { ShopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../events/event-sink';
import { toPayoutBatchResponse } from './payout.mapper';
import type { PayoutBatch } from './payout-batch.schema';

/**
 * The outbound events of a settled batch (DESIGN §11): `payout_batch.paid` or
 * `payout_batch.carried_forward` with the batch as GET /v1/payouts/batches/{id} shows it, and one
 * `payout_adjustment.paid` per adjustment it paid. Keys are the batch (and adjustment) ids, so a
 * resumed run that reaches the end again records nothing new.
 */
@Injectable()
export class PayoutEvents {
  private readonly logger = new Logger('PayoutEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly adjustments: PayoutAdjustmentsRepository,
  ) {}

  /** Never throws: the batch is settled whatever happens to its events. */
  async batchSettled(scope: ShopScope, batch: PayoutBatch): Promise<void> {
    try {
      await this.emit(scope, batch);
    } catch (err) {
      this.logger.error(
        { err: (err as Error)?.message, batchId: String(batch._id) },
        'Batch events not emitted',
      );
    }
  }

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
    await this.sink.emit(scope, events);
  }
}
