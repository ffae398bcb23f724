import { Injectable, OnModuleInit } from '@nestjs/common';
import { shopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import { byShop } from '../event-port/pending-event-marker';
import { toTransferResponse } from './transfer.mapper';
import type { Transfer } from './transfer.schema';
import { TRANSFER_EVENT_OF } from './transfer-states';
import { SystemTransferEventsRepository } from './system-transfers.repository';
import { TransfersRepository } from './transfers.repository';

/**
 * The event of the move at `index` in the transfer's history (null for a move nobody hears of):
 * keyed by the transfer and the move's place in the history (one event per move), dated by the
 * move, the transfer as GET /v1/payouts/transfers/{id} shows it.
 */
export function transferMoveEvent(t: Transfer, index: number): SourcedEvent | null {
  const move = t.history?.[index];
  const type = move ? TRANSFER_EVENT_OF[move.to] : undefined;
  if (!move || !type) return null;
  return {
    key: `${type}:${String(t._id)}:${index + 1}`,
    type,
    createdAt: new Date(move.at),
    object: { ...toTransferResponse(t) },
  };
}

/** The events of every move since the marker (the oldest pending one): those a crash left unrecorded. */
export function pendingTransferEvents(t: Transfer): SourcedEvent[] {
  if (!t.eventPendingAt) return [];
  const since = new Date(t.eventPendingAt).getTime();
  return (t.history ?? []).flatMap((m, i) =>
    new Date(m.at).getTime() >= since ? (transferMoveEvent(t, i) ?? []) : [],
  );
}

/**
 * The events sweeper's finisher of `transfer.paid|failed` (DESIGN §11): transfers whose marker is
 * older than the grace period get the events of their moves since it (an event the request did
 * record is stored once: same key), then the marker is cleared unless the transfer moved meanwhile.
 */
@Injectable()
export class TransferEventsFinisher implements OnModuleInit {
  constructor(
    private readonly sink: EventSink,
    private readonly system: SystemTransferEventsRepository,
    private readonly transfers: TransfersRepository,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'transfer', finish: (before, limit) => this.finish(before, limit) });
  }

  async finish(before: Date, limit: number): Promise<number> {
    const marked = await this.system.eventPending(before, limit);
    for (const [shopId, own] of byShop(marked)) {
      const scope = shopScope(shopId);
      if (!(await this.sink.emit(scope, own.flatMap(pendingTransferEvents)))) continue;
      for (const t of own) await this.transfers.eventsRecorded(scope, t, t.eventPendingAt!);
    }
    return marked.length;
  }
}
