import { Injectable, Optional } from '@nestjs/common';
import { Types } from 'mongoose';
import { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { dayRangeFilter } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { OperationContexts } from '../common/context/operation-context';
import { ShopScope, toObjectId } from '../common/tenancy';
import { EventSink } from '../event-port/event-sink';
import { crashPoint } from '../common/faults/crash-point';
import { transferMoveEvent } from './transfer-events';
import { VendorsRepository } from '../vendors/vendors.repository';
import { BatchTransferDto, TransferDto, TransferListDto, TransferListQueryDto } from './dto/transfer.dto';
import { PayoutMethodsService } from './payout-methods.service';
import { PayoutProvidersService } from './payout-providers.service';
import { toBatchTransfer, toTransferResponse } from './transfer.mapper';
import { Transfer, TransferStateChange } from './transfer.schema';
import { TransferQueue } from './transfer-queue';
import { signalTransferMoved } from './transfer-signals';
import { TransferCreditBack } from './transfer-credit-back';
import { PaidBatch, TransferHandOver } from './transfer-hand-over';
import { TransferManualActions } from './transfer-manual';
import { TransferRetry } from './transfer-retry';
import { failureCredit, reversalCredit } from './transfer-credits';
import { TransferState } from './transfer-states';
import { TransfersRepository } from './transfers.repository';

export type { PaidBatch } from './transfer-hand-over';

/**
 * Transfers (DESIGN §10): one per paid batch, stored before any provider is called, then driven
 * through its rail by the transfers queue (TransferRunner). This service holds the rules a caller
 * reaches: creation, reads, the manual confirmation, the operator retry, and the credit-back.
 */
@Injectable()
export class TransfersService {
  private readonly credits: TransferCreditBack;
  private readonly handOver: TransferHandOver;
  private readonly retries: TransferRetry;
  private readonly manual: TransferManualActions;

  constructor(
    private readonly transfers: TransfersRepository,
    methods: PayoutMethodsService,
    providers: PayoutProvidersService,
    private readonly adjustments: PayoutAdjustmentsService,
    vendors: VendorsRepository,
    private readonly queue: TransferQueue,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    @Optional() private readonly events?: EventSink,
  ) {
    this.credits = new TransferCreditBack(transfers, adjustments, clock);
    this.handOver = new TransferHandOver(transfers, methods, providers, vendors, queue, clock);
    this.retries = new TransferRetry(transfers, adjustments, queue, audit, clock, this);
    this.manual = new TransferManualActions(transfers, audit, clock, this);
  }

  /** The payout engine's hand-over of a paid batch (transfer-hand-over.ts). */
  createForPaidBatch(scope: ShopScope, batch: PaidBatch): Promise<TransferDto> {
    return this.handOver.createForPaidBatch(scope, batch);
  }

  async list(scope: ShopScope, q: TransferListQueryDto): Promise<TransferListDto> {
    const page = { offset: q.offset, limit: q.limit };
    const { total, items } = await this.transfers.page(
      scope,
      {
        state: q.state,
        method: q.method,
        vendorId: q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined,
        createdAt: dayRangeFilter(q.start, q.end),
      },
      page,
    );
    return { total, nextOffset: nextOffset(page, total), transfers: items.map(toTransferResponse) };
  }

  /** The batch's transfer for its read and statement (null: carried forward, or not created yet). */
  async ofBatch(scope: ShopScope, batchId: Types.ObjectId): Promise<BatchTransferDto | null> {
    const t = await this.transfers.findByBatch(scope, batchId);
    return t ? toBatchTransfer(t) : null;
  }

  async get(scope: ShopScope, id: string): Promise<TransferDto> {
    return toTransferResponse(await this.load(scope, id));
  }

  /** Manual rail: the operator paid by bank and records the reference → paid (transfer-manual.ts). */
  confirm(scope: ShopScope, id: string, reference: string): Promise<TransferDto> {
    return this.manual.confirm(scope, id, reference);
  }

  /** Manual rail: the bank refused the operator's payment → failed, credited back (transfer-manual.ts). */
  markFailed(scope: ShopScope, id: string, reason: string): Promise<TransferDto> {
    return this.manual.markFailed(scope, id, reason);
  }

  /** An operator retry of a failed transfer (transfer-retry.ts). */
  retry(scope: ShopScope, id: string): Promise<TransferDto> {
    return this.retries.retry(scope, id);
  }

  /**
   * Makes the credit-backs a failed or reversed transfer recorded (system ADDITION adjustments,
   * the first with the transfer's own id), paid by the vendor's next batch; the batch's lines stay
   * paid by their batch. Idempotent and resumable: the transfer sweeper calls it for any transfer
   * whose credits are not confirmed yet.
   */
  async creditBack(scope: ShopScope, transfer: Transfer): Promise<Transfer> {
    return this.credits.settle(scope, transfer);
  }

  /**
   * Moves a transfer to `failed` (from pending or sent) with its credit-back recorded in the same
   * write, makes the credit, then tells of the failure; false when it had moved on.
   */
  async fail(scope: ShopScope, t: Transfer, reason: string, by: string): Promise<boolean> {
    const change = this.change(t.state, 'failed', by, reason);
    const moved = await this.transfers.recordCredit(
      scope,
      t,
      'failed',
      change,
      failureCredit(t, reason, change.at),
    );
    if (!moved) return false;
    await this.moved(scope, await this.creditBack(scope, moved));
    return true;
  }

  /**
   * The provider took back `reportedTotal` in total (Stripe's running `amount_reversed`): a paid
   * transfer moves to `reversed`, a reversed one has its total raised; either way with a credit of
   * exactly the increase, recorded in the same conditional write (on the total as read, so it only
   * rises and every cent of it is credited once, whatever the order of the reports), never above
   * the transfer amount. An older or repeated report changes nothing (it finishes a credit a crash
   * left unmade). False when nothing was reversed now.
   */
  async reverse(
    scope: ShopScope,
    start: Transfer,
    reportedTotal: number,
    by: string,
    note: string,
  ): Promise<boolean> {
    let t: Transfer | null = start;
    for (let attempt = 0; t && attempt < 5; attempt++) {
      if (t.state !== 'paid' && t.state !== 'reversed') return false;
      const change = this.change(t.state, 'reversed', by, note);
      const write = reversalCredit(t, reportedTotal, change.at);
      if (!write) {
        if (t.state === 'reversed' && !t.creditAdjustmentId) await this.creditBack(scope, t);
        return false;
      }
      const moved = await this.transfers.recordCredit(scope, t, 'reversed', change, write);
      if (moved) {
        await this.moved(scope, await this.creditBack(scope, moved));
        return true;
      }
      t = await this.transfers.findById(scope, t._id); // another report or move got there first
    }
    return false;
  }

  /**
   * A pending (or sent) transfer a lookup found made at the provider and already reversed (by
   * `reportedTotal` in total, whose webhook found no paid transfer then): paid and reversed in one
   * conditional write with the credit of the reversal, so no crash can leave it paid with the
   * reversal unrecorded (nothing reads a paid transfer again). Null: it moved meanwhile.
   */
  async paidAndReversed(
    scope: ShopScope,
    t: Transfer,
    paid: Partial<Transfer>,
    reportedTotal: number,
    by: string,
    audit: { stamp: AuditStamp | null; event: AuditRecord | null } = { stamp: null, event: null },
  ): Promise<Transfer | null> {
    const paidChange = this.change(t.state, 'paid', by);
    // one write, one time: both moves' events are told together and the marker cleared (moved())
    const change = {
      ...this.change('paid', 'reversed', by, 'reversed at the provider before it was recorded paid'),
      at: paidChange.at,
    };
    const write = reversalCredit(t, reportedTotal, change.at);
    if (!write) return null;
    write.set = { ...paid, ...write.set };
    const moved = await this.transfers.recordCredit(scope, t, 'reversed', change, write, paidChange, audit);
    if (!moved) return null;
    if (audit.stamp && audit.event)
      await this.audit.commit(scope, this.transfers.outbox, audit.stamp, [audit.event], [moved._id]);
    await this.moved(scope, await this.creditBack(scope, moved));
    return moved;
  }

  change(
    from: TransferState | null,
    to: TransferState,
    by: string,
    note: string | null = null,
  ): TransferStateChange {
    return { from, to, at: this.clock.now(), by, note };
  }

  /**
   * After every move: the metrics, and the outbound event of a transfer that reached the vendor
   * (`transfer.paid`) or did not (`transfer.failed`, also for a reversal). The key names the move
   * (its place in the history), so a repeated call records one event per move. The move's write
   * marked it pending; once recorded the mark goes, unless an older move is still pending too (the
   * events sweeper records both).
   */
  async moved(scope: ShopScope, t: Transfer): Promise<void> {
    signalTransferMoved({ method: t.method, state: t.state, amount: t.amount });
    const event = transferMoveEvent(t, (t.history?.length ?? 0) - 1);
    if (!event || !this.events) return;
    crashPoint('after-change:transfer');
    // the moves of the last write (paid and reversed together: paidAndReversed); keyed per move
    const events = (t.history ?? []).flatMap((m, i) =>
      new Date(m.at).getTime() === event.createdAt.getTime() ? (transferMoveEvent(t, i) ?? []) : [],
    );
    if (!(await this.events.emit(scope, events))) return;
    const pendingAt = t.eventPendingAt;
    if (pendingAt && pendingAt.getTime() === event.createdAt.getTime())
      await OperationContexts.phase('events', () => this.transfers.eventsRecorded(scope, t, pendingAt));
  }

  async load(scope: ShopScope, id: string | Types.ObjectId): Promise<Transfer> {
    const t = await this.transfers.findById(scope, id);
    if (!t) throw new NotFoundError('Transfer');
    return t;
  }

  /** Who made a change through the API (`shop:<id>`), for the transfer's own history. */
  caller(): string {
    const actor = OperationContexts.current()?.actor;
    return actor ? `${actor.kind}:${actor.id}` : 'system';
  }
}
