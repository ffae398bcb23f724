import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { type ShopScope, toObjectId } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import { VendorBalanceService } from './vendor-balance.service';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';

/** The events after which a vendor's `due` may have crossed below zero. */
const MOVES_DUE = new Set([
  'refund.recorded',
  'payout_batch.paid',
  'payout_batch.carried_forward',
  'payout_adjustment.created',
  'payout_adjustment.updated',
  'payout_adjustment.deleted',
]);

/**
 * `balance.negative` (DESIGN §11): after each event that moves a vendor's `due` (a refund's rows, a
 * settled batch, an adjustment created, changed or deleted), the vendor's balance is read; below zero while not marked negative is crossing
 * n+1: its event (key `balance.negative:<vendor>:<n+1>`) is recorded, then the mark is set, so a
 * crash in between re-emits the same id. Back at zero or above clears the mark.
 */
@Injectable()
export class BalanceWatch implements OnModuleInit {
  constructor(
    private readonly sink: EventSink,
    private readonly balances: VendorBalanceService,
    private readonly marks: VendorBalancesRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.sink.watch((scope, events) => this.afterEvents(scope, events));
  }

  async afterEvents(scope: ShopScope, events: SourcedEvent[]): Promise<void> {
    const vendors = new Set<string>();
    for (const e of events) {
      const vendorId = e.object.vendorId;
      if (MOVES_DUE.has(e.type) && typeof vendorId === 'string') vendors.add(vendorId);
    }
    for (const vendorId of vendors) await this.check(scope, vendorId);
  }

  async check(scope: ShopScope, vendorId: string): Promise<void> {
    const id = toObjectId(vendorId);
    if (!id) return;
    const [balance, mark] = await Promise.all([
      this.balances.get(scope, vendorId),
      this.marks.find(scope, id),
    ]);
    const negative = mark?.negative === true;
    if (balance.due < 0 && !negative) {
      const n = (mark?.negativeCrossings ?? 0) + 1;
      await this.sink.emit(scope, [
        {
          key: `balance.negative:${vendorId}:${n}`,
          type: 'balance.negative',
          createdAt: this.clock.now(),
          object: { ...balance },
        },
      ]);
      await this.marks.markNegative(scope, id, n);
    } else if (balance.due >= 0 && negative) await this.marks.clearNegative(scope, id);
  }
}
