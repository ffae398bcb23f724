import type { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { AuditTrail } from '../audit/audit-trail.service';
import type { Clock } from '../common/clock/clock';
import { ConflictError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import type { TransferDto } from './dto/transfer.dto';
import { toTransferResponse } from './transfer.mapper';
import type { Transfer, TransferStateChange } from './transfer.schema';
import { creditSeqOf, ledgerOf } from './transfer-credits';
import type { TransferGuard } from './transfer-lease';
import type { TransferQueue } from './transfer-queue';
import type { TransferState } from './transfer-states';
import type { TransfersRepository } from './transfers.repository';

/** How long an operator retry holds a failed transfer (it takes milliseconds; a crash lets it lapse). */
const RETRY_HOLD_MS = 60_000;

/** What a retry uses of the transfers service (TransfersService is one). */
export interface RetrySteps {
  load(scope: ShopScope, id: string): Promise<Transfer>;
  creditBack(scope: ShopScope, transfer: Transfer): Promise<Transfer>;
  moved(scope: ShopScope, t: Transfer): Promise<void>;
  change(
    from: TransferState | null,
    to: TransferState,
    by: string,
    note?: string | null,
  ): TransferStateChange;
  caller(): string;
}

/** The operator's retry of a failed transfer (POST /v1/payouts/transfers/{id}/retry). */
export class TransferRetry {
  constructor(
    private readonly transfers: TransfersRepository,
    private readonly adjustments: Pick<PayoutAdjustmentsService, 'withdrawSystemAddition'>,
    private readonly queue: TransferQueue,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly steps: RetrySteps,
  ) {}

  /**
   * An operator retry of a failed transfer: its credit-back is taken back (refused when a batch has
   * paid it already — the money reached the vendor that way) and the transfer is sent again with
   * the same idempotency key. The transfer is held first (no credit-back can be confirmed past the
   * hold, see TransferCreditBack), then its credits are withdrawn, then it moves: a credit-back
   * running at the same time either is withdrawn here or withdraws itself.
   */
  async retry(scope: ShopScope, id: string): Promise<TransferDto> {
    const t = await this.steps.load(scope, id);
    if (t.state !== 'failed')
      throw new ConflictError(`Only a failed transfer can be retried; this one is ${t.state}`);
    const now = this.clock.now();
    const held = await this.transfers.holdForRetry(
      scope,
      t._id,
      now,
      new Date(now.getTime() + RETRY_HOLD_MS),
    );
    if (!held) throw new ConflictError('The transfer changed meanwhile or is being retried; read it again');
    // Every later write is conditional on this hold (not lapsed) and the credits as held: a retry
    // stalled past its hold may find the sweeper has credited the transfer back again meanwhile.
    const own = (): TransferGuard => ({
      lease: { until: held.leaseUntil!, now: this.clock.now() },
      creditSeq: held.creditSeq ?? null,
    });
    const withdrawn: string[] = [];
    for (const c of ledgerOf(held)) {
      const w = await this.adjustments.withdrawSystemAddition(scope, c.adjustmentId);
      if (w === 'paid') {
        // The vendor has this money through a batch: the transfer stays failed, its credit confirmed.
        const released = await this.transfers.release(scope, t._id, {}, {}, own());
        if (released) await this.steps.creditBack(scope, released);
        throw new ConflictError(
          'This transfer was credited back and a later payout batch has paid that credit; it cannot be sent again',
        );
      }
      withdrawn.push(w);
    }
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'transfer.retry',
      { type: 'transfer', id: t._id },
      { state: t.state },
      { state: 'pending' },
    );
    const moved = await this.transfers.move(
      scope,
      t._id,
      'pending',
      this.steps.change(
        'failed',
        'pending',
        this.steps.caller(),
        `credit-back ${withdrawn.join(', ') || 'absent'}`,
      ),
      // The counter stays (stored, for a transfer from before it): a withdrawn id is never used again.
      {
        lastError: null,
        failedAt: null,
        creditAdjustmentId: null,
        credits: [],
        creditSeq: creditSeqOf(held),
        refusals: 0,
      },
      { stamp, event },
      {},
      own(),
    );
    if (!moved) {
      throw new ConflictError(
        'The retry lost its hold on the transfer (it took too long) or the transfer changed meanwhile; nothing was sent: read it again',
      );
    }
    await this.audit.commit(scope, this.transfers.outbox, stamp, [event], [moved._id]);
    await this.steps.moved(scope, moved);
    await this.queue.send(scope, String(moved._id));
    return toTransferResponse(moved);
  }
}
