import { Injectable, Logger, Module } from '@nestjs/common';
import { OperationContexts } from '../common/context/operation-context';
import type { ShopScope } from '../common/tenancy';
import type { EventType } from './event-catalogue';
import { eventIdFor } from './fan-out';

/** An event a feature reports: a source key (hashed into the event id), type, time, `data.object`. */
export interface SourcedEvent {
  /** Identifies the change exactly once (e.g. `payout_batch.paid:<batchId>`): repeats store one event. */
  key: string;
  type: EventType;
  createdAt: Date;
  object: Record<string, unknown>;
}

export interface EventRecorder {
  record(
    scope: ShopScope,
    drafts: Array<{ id: string; type: EventType; createdAt: Date; object: Record<string, unknown> }>,
    durability: 'sweeper',
  ): Promise<void>;
}

/**
 * Where features that write without the audit outbox (ingestion, refunds, the payout engine) report
 * their outbound events (DESIGN §11). EventsService registers itself here, so the features depend on
 * this small module only, never on the events module (which reads vendors, users, line items: a
 * cycle otherwise). An event never fails the change it reports: the change is done, and a lost
 * event is logged (the emit call sites come after the change is complete and idempotent).
 */
@Injectable()
export class EventSink {
  private readonly logger = new Logger('EventSink');
  private recorder: EventRecorder | null = null;
  private readonly watchers: Array<(scope: ShopScope, events: SourcedEvent[]) => Promise<void>> = [];

  register(recorder: EventRecorder): void {
    this.recorder = recorder;
  }

  /** Called after every emit (e.g. the balance watch looks at the vendors a money event names). */
  watch(watcher: (scope: ShopScope, events: SourcedEvent[]) => Promise<void>): void {
    this.watchers.push(watcher);
  }

  async emit(scope: ShopScope, events: SourcedEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (!this.recorder) {
      this.logger.warn({ types: events.map((e) => e.type) }, 'No events module in this process: not emitted');
      return;
    }
    try {
      // A phase of its own: round-trip budgets count the change and its events apart.
      const recorder = this.recorder;
      await OperationContexts.phase('events', () =>
        recorder.record(
          scope,
          events.map((e) => ({
            id: eventIdFor(e.key),
            type: e.type,
            createdAt: e.createdAt,
            object: e.object,
          })),
          'sweeper',
        ),
      );
    } catch (err) {
      this.logger.error(
        { err: (err as Error)?.message, shopId: scope.shopId, keys: events.map((e) => e.key) },
        'Outbound events not recorded',
      );
    }
    for (const w of this.watchers) {
      await OperationContexts.phase('events', () => w(scope, events)).catch((err: unknown) =>
        this.logger.error({ err: (err as Error)?.message, shopId: scope.shopId }, 'Event watcher failed'),
      );
    }
  }
}

/** Imported by every emitting feature and by EventsModule; one instance per process (Nest modules are singletons). */
@Module({ providers: [EventSink], exports: [EventSink] })
export class EventSinkModule {}
