import type { AuditTrail } from '../audit/audit-trail.service';
import type { Clock } from '../common/clock/clock';
import { ConflictError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import type { TransferDto } from './dto/transfer.dto';
import { toTransferResponse } from './transfer.mapper';
import { failureCredit } from './transfer-credits';
import type { RetrySteps } from './transfer-retry';
import type { TransfersRepository } from './transfers.repository';

/**
 * The manual rail's two operator actions on a transfer `awaiting_reference` (DESIGN §10): the
 * operator paid by bank and records the reference (→ paid), or the bank refused or returned the
 * payment (→ failed, credited back exactly as a provider's failure is: the credit in the same write
 * as the move, so the next batch pays it again). Either is audited in the move's own write.
 */
export class TransferManualActions {
  constructor(
    private readonly transfers: TransfersRepository,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly steps: RetrySteps,
  ) {}

  async confirm(scope: ShopScope, id: string, reference: string): Promise<TransferDto> {
    const t = await this.steps.load(scope, id);
    const ref = reference.trim();
    if (t.state === 'paid' && t.method === 'manual' && t.reference === ref) return toTransferResponse(t);
    if (t.state !== 'awaiting_reference') {
      throw new ConflictError(
        `Only a manual transfer awaiting its reference can be confirmed; this one is ${t.state}`,
      );
    }
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'transfer.confirm',
      { type: 'transfer', id: t._id },
      { state: t.state, reference: t.reference },
      { state: 'paid', reference: ref },
    );
    const now = this.clock.now();
    const moved = await this.transfers.move(
      scope,
      t._id,
      'paid',
      this.steps.change(t.state, 'paid', this.steps.caller(), ref),
      { reference: ref, settledAt: now },
      { stamp, event },
    );
    if (!moved) throw new ConflictError('The transfer changed meanwhile; read it again');
    await this.audit.commit(scope, this.transfers.outbox, stamp, [event], [moved._id]);
    await this.steps.moved(scope, moved);
    return toTransferResponse(moved);
  }

  /**
   * The bank refused the payment: failed, its amount credited back once. The same reason again
   * answers the failed transfer (a retried request); anything but a manual transfer awaiting its
   * reference → 409 (a provider's transfer is followed up with its provider instead).
   */
  async markFailed(scope: ShopScope, id: string, reason: string): Promise<TransferDto> {
    const t = await this.steps.load(scope, id);
    const why = reason.trim();
    if (t.state === 'failed' && t.method === 'manual' && t.lastError === why) return toTransferResponse(t);
    if (t.state !== 'awaiting_reference') {
      throw new ConflictError(
        `Only a manual transfer awaiting its reference can be marked failed; this one is ${t.state}` +
          (t.method === 'manual' ? '' : ' (a provider transfer: POST /v1/payouts/transfers/{id}/follow-up)'),
      );
    }
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'transfer.fail',
      { type: 'transfer', id: t._id },
      { state: t.state },
      { state: 'failed', reason: why },
    );
    const change = this.steps.change(t.state, 'failed', this.steps.caller(), why);
    const moved = await this.transfers.recordCredit(
      scope,
      t,
      'failed',
      change,
      failureCredit(t, why, change.at),
      null,
      { stamp, event },
    );
    if (!moved) throw new ConflictError('The transfer changed meanwhile; read it again');
    await this.audit.commit(scope, this.transfers.outbox, stamp, [event], [moved._id]);
    await this.steps.moved(scope, await this.steps.creditBack(scope, moved));
    return toTransferResponse(moved);
  }
}
