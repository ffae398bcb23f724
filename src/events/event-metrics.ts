import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';
import { withTimeout } from '../common/async/timeout';
import { EVENT_DELIVERY_STATES } from './event-delivery.schema';
import { SystemEventsRepository } from './system-events.repository';

const COLLECT_TIMEOUT_MS = 1500;
const STATS_TTL_MS = 10_000;

/**
 * The outbound events' metrics (issue 19): attempts by outcome and status class, attempt latency,
 * change-to-delivery latency, endpoints disabled, deliveries per state and the age of the oldest
 * pending one (cross-shop counts, refreshed at most every 10 s). Queue depth is the `events` queue
 * of `marketplace_queue_jobs`. Registered into the ops listener's registry by MetricsService.
 */
@Injectable()
export class EventMetrics {
  private readonly attempts = new Counter({
    name: 'marketplace_event_delivery_attempts_total',
    help: 'Outbound event delivery attempts by outcome (succeeded|retry|failed|disable) and answer class (2xx…5xx, none)',
    labelNames: ['outcome', 'status_class'],
    registers: [],
  });
  private readonly latency = new Histogram({
    name: 'marketplace_event_attempt_duration_seconds',
    help: 'Duration of one outbound event delivery attempt',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [],
  });
  private readonly lag = new Histogram({
    name: 'marketplace_event_delivery_lag_seconds',
    help: 'From the change an event reports to its successful delivery',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600, 86400],
    registers: [],
  });
  private readonly disables = new Counter({
    name: 'marketplace_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled by the server (410 Gone, 5 days of failures)',
    registers: [],
  });
  private readonly unsignables = new Counter({
    name: 'marketplace_event_unsignable_attempts_total',
    help: 'Delivery attempts not sent because a signing secret opens under no configured key',
    registers: [],
  });
  private stats: { at: number; counts: Record<string, number>; oldest: Date | null } | null = null;

  constructor(private readonly system: SystemEventsRepository) {}

  registerIn(registry: Registry): void {
    const stats = () => this.statsNow();
    const byState = new Gauge({
      name: 'marketplace_event_deliveries',
      help: 'Outbound event deliveries per state, all shops',
      labelNames: ['state'],
      registers: [],
      async collect() {
        const s = await stats();
        if (s) for (const state of EVENT_DELIVERY_STATES) this.set({ state }, s.counts[state] ?? 0);
      },
    });
    const oldest = new Gauge({
      name: 'marketplace_event_oldest_undelivered_age_seconds',
      help: 'How long the oldest pending delivery has been due (0 when none is)',
      registers: [],
      async collect() {
        const s = await stats();
        if (s) this.set(s.oldest ? Math.max(0, (Date.now() - s.oldest.getTime()) / 1000) : 0);
      },
    });
    for (const m of [
      this.attempts,
      this.latency,
      this.lag,
      this.disables,
      this.unsignables,
      byState,
      oldest,
    ] as Metric[])
      registry.registerMetric(m);
  }

  attempt(status: number | null, durationMs: number, outcome: string): void {
    this.attempts.inc({ outcome, status_class: status === null ? 'none' : `${Math.floor(status / 100)}xx` });
    this.latency.observe(durationMs / 1000);
  }

  delivered(lagMs: number): void {
    this.lag.observe(Math.max(0, lagMs) / 1000);
  }

  disabled(): void {
    this.disables.inc();
  }

  unsignable(): void {
    this.unsignables.inc();
  }

  private async statsNow() {
    if (this.stats && Date.now() - this.stats.at < STATS_TTL_MS) return this.stats;
    try {
      const [counts, oldest] = await withTimeout(
        Promise.all([
          Promise.all(
            EVENT_DELIVERY_STATES.map(async (s) => [s, await this.system.countByState(s)] as const),
          ),
          this.system.oldestPending(),
        ]),
        COLLECT_TIMEOUT_MS * 2,
        'MongoDB',
      );
      this.stats = { at: Date.now(), counts: Object.fromEntries(counts), oldest };
    } catch {
      // keeps the last values
    }
    return this.stats;
  }
}
