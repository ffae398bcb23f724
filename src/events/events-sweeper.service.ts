import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { EventSink } from '../event-port/event-sink';
import { EventsService } from './events.service';
import { DueDelivery, SystemEventsRepository } from './system-events.repository';

const BATCH = 500;
const MAX_BATCHES = 20;

export interface SweepReport {
  /** Pending-event markers finished (events a crash left unrecorded after their change). */
  finished: number;
  fannedOut: number;
  redriven: number;
  purged: number;
}

/** How long events and their delivery logs are kept (GET /v1/events, replay). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * The events sweeper (repeatable, and once at every processor start): first runs the features'
 * finishers (a change whose pending-event marker is older than the grace period: its event is
 * re-derived from the source and recorded, the marker cleared), then finishes fan-outs a crash
 * interrupted, and re-queues pending deliveries whose attempt is overdue by more than the grace
 * period (their job was lost with Redis, or its process died), and deletes events and deliveries
 * older than the 30 days kept. Sending twice at once is prevented by
 * the attempt's claim, so a re-queued delivery that was only late is harmless.
 */
@Injectable()
export class EventsSweeper {
  private readonly logger = new Logger('EventsSweeper');

  constructor(
    private readonly system: SystemEventsRepository,
    private readonly events: EventsService,
    private readonly sink: EventSink,
    private readonly clock: Clock,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  async sweep(): Promise<SweepReport> {
    const report: SweepReport = { finished: 0, fannedOut: 0, redriven: 0, purged: 0 };
    const before = new Date(this.clock.now().getTime() - this.cfg.redriveAfterMs);
    // Before the fan-outs: an event a finisher records is fanned out by that same record.
    for (const finisher of this.sink.finishers()) {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const n = await finisher.finish(before, BATCH).catch((err: unknown) => {
          this.logger.error(
            { err: (err as Error)?.message, finisher: finisher.name },
            'Event finisher failed',
          );
          return 0;
        });
        report.finished += n;
        if (n < BATCH) break;
      }
    }
    for (let i = 0; i < MAX_BATCHES; i++) {
      const events = await this.system.pendingFanout(before, BATCH);
      for (const e of events) await this.events.finishFanOut(shopScope(String(e.shopId)), e._id);
      report.fannedOut += events.length;
      if (events.length < BATCH) break;
    }
    let cursor = before;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const due = await this.system.dueDeliveries(cursor, BATCH);
      const byShop = new Map<string, DueDelivery[]>();
      for (const d of due) byShop.set(String(d.shopId), [...(byShop.get(String(d.shopId)) ?? []), d]);
      for (const [shopId, ids] of byShop) await this.events.enqueue(shopScope(shopId), ids);
      report.redriven += due.length;
      if (due.length < BATCH) break;
      cursor = due[due.length - 1].nextAttemptAt;
    }
    const retention = new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000);
    for (let i = 0; i < MAX_BATCHES; i++) {
      const purged = await this.system.purgeBefore(retention, BATCH);
      report.purged += purged;
      if (purged < BATCH) break;
    }
    if (report.finished + report.fannedOut + report.redriven > 0)
      this.logger.warn(
        report,
        'Events sweeper: finished pending events and fan-outs, re-queued overdue deliveries',
      );
    return report;
  }
}
