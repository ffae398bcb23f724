import { Injectable, Logger, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OperationContexts } from '../common/context/operation-context';
import type { ShopScope } from '../common/tenancy';
import type { EventType } from './event-catalogue';
import { EndpointReadsRepository } from './endpoint-reads.repository';
import { eventIdFor } from './fan-out';
import { WebhookEndpoint, WebhookEndpointSchema } from './webhook-endpoint.schema';

/** An event a feature reports: a source key (hashed into the event id), type, time, `data.object`. */
export interface SourcedEvent {
  /** Identifies the change exactly once (e.g. `payout_batch.paid:<batchId>`): repeats store one event. */
  key: string;
  type: EventType;
  createdAt: Date;
  object: Record<string, unknown>;
}

/**
 * Finishes the events a crash left behind: a feature whose write carries a pending-event marker
 * (set in the same single-document write as the change) registers one with the sink; the events
 * sweeper runs every registered finisher. `finish` re-derives each marked source's event (same key,
 * so the same id: an event the request did record is stored once), records it through the sink and
 * clears the marker; it answers how many markers it finished.
 */
export interface EventFinisher {
  /** What it finishes (logs, the sweeper's report). */
  name: string;
  finish(before: Date, limit: number): Promise<number>;
}

export interface EventRecorder {
  /** `endpoints`: the shop's endpoints as the caller read them (EndpointReadsRepository); else read here. */
  record(
    scope: ShopScope,
    drafts: Array<{ id: string; type: EventType; createdAt: Date; object: Record<string, unknown> }>,
    durability: 'sweeper',
    endpoints?: Array<Record<string, unknown>>,
  ): Promise<void>;
  /** Which of these event ids are stored (one indexed read). */
  storedIds(scope: ShopScope, ids: string[]): Promise<Set<string>>;
}

/**
 * Where features that write without the audit outbox (ingestion, refunds, the payout engine) report
 * their outbound events (DESIGN §11). EventsService registers itself here, so the features depend on
 * this small module only, never on the events module (which reads vendors, users, line items: a
 * cycle otherwise). An event never fails the change it reports: the change is done, and carries a
 * pending-event marker in its own write until the event is recorded; a crash or a failed record
 * leaves the marker, and the events sweeper runs the feature's finisher (`EventFinisher`).
 */
@Injectable()
export class EventSink {
  private readonly logger = new Logger('EventSink');
  private recorder: EventRecorder | null = null;
  private readonly watchers: Array<(scope: ShopScope, events: SourcedEvent[]) => Promise<void>> = [];
  private readonly finishing: EventFinisher[] = [];

  register(recorder: EventRecorder): void {
    this.recorder = recorder;
  }

  /** A feature's finisher of pending-event markers (run by the events sweeper). */
  finisher(finisher: EventFinisher): void {
    this.finishing.push(finisher);
  }

  finishers(): readonly EventFinisher[] {
    return this.finishing;
  }

  /** Called after every emit (e.g. the balance watch looks at the vendors a money event names). */
  watch(watcher: (scope: ShopScope, events: SourcedEvent[]) => Promise<void>): void {
    this.watchers.push(watcher);
  }

  /**
   * Whether events are recorded in this process (an events module registered its recorder). A
   * caller reads the endpoints of a coming `emit` along with its own reads only then
   * (EndpointReadsRepository): `emit` then does not read them (ingestion: one round trip less).
   */
  get recording(): boolean {
    return this.recorder !== null;
  }

  /**
   * Records the events (then runs the watchers). True when they are recorded: only then may the
   * caller clear its source's pending-event marker; otherwise the sweeper's finisher records them.
   * `endpoints`: the shop's endpoints (EndpointReadsRepository), read by the caller before the change it reports (an
   * endpoint created after that read gets only later events, as after a read made here).
   */
  async emit(
    scope: ShopScope,
    events: SourcedEvent[],
    endpoints?: Array<Record<string, unknown>>,
  ): Promise<boolean> {
    if (events.length === 0) return true;
    if (!this.recorder) {
      this.logger.warn({ types: events.map((e) => e.type) }, 'No events module in this process: not emitted');
      return false;
    }
    let recorded = false;
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
          endpoints,
        ),
      );
      recorded = true;
    } catch (err) {
      this.logger.error(
        { err: (err as Error)?.message, shopId: scope.shopId, keys: events.map((e) => e.key) },
        'Outbound events not recorded',
      );
    }
    await this.notify(scope, events);
    return recorded;
  }

  /**
   * The source keys among these whose events are stored: a finisher clears the markers of those
   * without re-deriving them (a request that records its event may leave its marker to the
   * sweeper). Empty when no events module runs in this process or the read fails (nothing is then
   * taken as recorded; it never throws).
   */
  async recorded(scope: ShopScope, keys: string[]): Promise<Set<string>> {
    if (!this.recorder || keys.length === 0) return new Set();
    const byId = new Map(keys.map((k) => [eventIdFor(k), k]));
    try {
      const stored = await this.recorder.storedIds(scope, [...byId.keys()]);
      return new Set([...stored].map((id) => byId.get(id)!));
    } catch (err) {
      // as if none were stored: the finisher re-derives them, and its record fails or stores them once
      this.logger.error({ err: (err as Error)?.message, shopId: scope.shopId }, 'Stored events not read');
      return new Set();
    }
  }

  /**
   * Runs the watchers over events recorded elsewhere (the audit outbox's: an adjustment moves a
   * vendor's `due` too). A watcher never fails the change: its errors are logged.
   */
  async notify(scope: ShopScope, events: SourcedEvent[]): Promise<void> {
    for (const w of this.watchers) {
      await OperationContexts.phase('events', () => w(scope, events)).catch((err: unknown) =>
        this.logger.error({ err: (err as Error)?.message, shopId: scope.shopId }, 'Event watcher failed'),
      );
    }
  }
}

/** Imported by every emitting feature and by EventsModule; one instance per process (Nest modules are singletons). */
@Module({
  imports: [MongooseModule.forFeature([{ name: WebhookEndpoint.name, schema: WebhookEndpointSchema }])],
  providers: [EventSink, EndpointReadsRepository],
  exports: [EventSink, EndpointReadsRepository],
})
export class EventSinkModule {}
