import { getQueueToken } from '@nestjs/bull';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bull';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../common/async/timeout';
import { EventMetrics } from '../events/event-metrics';
import { SystemDeliveriesRepository } from '../ingestion/system-deliveries.repository';
import { DELIVERY_STATES } from '../ingestion/webhook-delivery.schema';
import { onJobRun, Queues } from '../queues/jobs';
import { onProviderCall } from '../transfers/rails/provider-calls';
import { onTransferMoved } from '../transfers/transfer-signals';
import { RefundMetrics } from '../refunds/refund-metrics';
import { onExport } from '../common/csv/export-events';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** Scrapes do not wait longer than this on Redis or MongoDB (a gauge keeps its last value). */
const COLLECT_TIMEOUT_MS = 1500;
/** Delivery counts are cross-shop counts: refreshed at most this often. */
const DELIVERY_STATS_TTL_MS = 10_000;

/**
 * The process's Prometheus metrics (prom-client, one registry per app instance): HTTP request
 * durations by method, route template and status; jobs per queue and state; webhook deliveries per
 * state and the age of the oldest one not processed yet; job handler durations; and prom-client's
 * default process metrics (CPU, RSS, heap, event loop lag, GC). Served by the ops listener.
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly jobDuration: Histogram<'queue' | 'name' | 'outcome'>;
  private readonly scrapeErrors: Counter<'source'>;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeRails: Array<() => void>;
  private readonly unsubscribeExports: () => void;
  private deliveryStats: { at: number; counts: Record<string, number>; oldest: Date | null } | null = null;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly deliveries: SystemDeliveriesRepository,
    eventMetrics: EventMetrics,
  ) {
    collectDefaultMetrics({ register: this.registry });
    // Refund rows, amounts clawed back and batch outcomes (counted where the work happens).
    try {
      for (const m of this.moduleRef.get(RefundMetrics, { strict: false }).all())
        this.registry.registerMetric(m);
    } catch {
      // a process without the refunds feature
    }
    eventMetrics.registerIn(this.registry);
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route template and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.jobDuration = new Histogram({
      name: 'marketplace_job_duration_seconds',
      help: 'Queue job handler duration by queue, job name and outcome (ok|error), in this process',
      labelNames: ['queue', 'name', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [this.registry],
    });
    this.scrapeErrors = new Counter({
      name: 'marketplace_metrics_collect_errors_total',
      help: 'Gauges that could not be refreshed at a scrape (the service they read was unreachable)',
      labelNames: ['source'],
      registers: [this.registry],
    });
    const queues = this.queues();
    const scrapeErrors = this.scrapeErrors;
    new Gauge({
      name: 'marketplace_queue_jobs',
      help: 'Jobs per queue and state (waiting, active, delayed, failed)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        await Promise.all(
          queues.map(async ([name, queue]) => {
            try {
              const counts = await withTimeout(queue.getJobCounts(), COLLECT_TIMEOUT_MS, 'Redis');
              for (const state of QUEUE_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
            } catch {
              scrapeErrors.inc({ source: 'redis' });
            }
          }),
        );
      },
    });
    const stats = () => this.deliveryStatsNow();
    new Gauge({
      name: 'marketplace_webhook_deliveries',
      help: 'Webhook deliveries in the inbox per state, all shops',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const s = await stats();
        if (s) for (const state of DELIVERY_STATES) this.set({ state }, s.counts[state] ?? 0);
      },
    });
    new Gauge({
      name: 'marketplace_webhook_delivery_oldest_unprocessed_age_seconds',
      help: 'Age of the oldest delivery still waiting to be processed (0 when none waits): ingestion lag',
      registers: [this.registry],
      async collect() {
        const s = await stats();
        if (s) this.set(s.oldest ? Math.max(0, (Date.now() - s.oldest.getTime()) / 1000) : 0);
      },
    });
    // Payout rails: transfers reaching each state per rail, the amount that reached paid per rail,
    // and every provider call's latency and outcome (this process's counts; sum over processes).
    const transfers = new Counter({
      name: 'marketplace_transfers_total',
      help: 'Transfers that reached a state (pending, sent, awaiting_reference, paid, failed, reversed) by payout method',
      labelNames: ['method', 'state'],
      registers: [this.registry],
    });
    const paidAmount = new Counter({
      name: 'marketplace_transfer_paid_amount_total',
      help: 'Sum of transfer amounts that reached paid, by payout method (currency units, all currencies added)',
      labelNames: ['method'],
      registers: [this.registry],
    });
    const providerLatency = new Histogram({
      name: 'marketplace_payout_provider_request_duration_seconds',
      help: 'Payout provider calls by provider, operation and outcome (ok, refused, outage)',
      labelNames: ['provider', 'operation', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    const providerErrors = new Counter({
      name: 'marketplace_payout_provider_errors_total',
      help: 'Payout provider calls that failed, by provider and kind (refused: a 4xx answer; outage: unreachable, 5xx, 429)',
      labelNames: ['provider', 'kind'],
      registers: [this.registry],
    });
    this.unsubscribeRails = [
      onTransferMoved((m) => {
        transfers.inc({ method: m.method, state: m.state });
        if (m.state === 'paid') paidAmount.inc({ method: m.method }, m.amount);
      }),
      onProviderCall((c) => {
        providerLatency.observe(
          { provider: c.provider, operation: c.operation, outcome: c.outcome },
          c.seconds,
        );
        if (c.outcome !== 'ok') providerErrors.inc({ provider: c.provider, kind: c.outcome });
      }),
    ];
    this.unsubscribe = onJobRun((run) =>
      this.jobDuration.observe(
        { queue: run.queue, name: run.name, outcome: run.ok ? 'ok' : 'error' },
        run.seconds,
      ),
    );
    this.unsubscribeExports = this.subscribeExports();
  }

  /** CSV exports (payout lists, statements): how many, how they ended, how many rows left. */
  private subscribeExports(): () => void {
    const exports = new Counter({
      name: 'marketplace_exports_total',
      help: 'CSV exports by kind (payouts, statement) and outcome (ok: every row written; error: stopped)',
      labelNames: ['kind', 'outcome'],
      registers: [this.registry],
    });
    const rows = new Counter({
      name: 'marketplace_export_rows_total',
      help: 'Rows written by CSV exports, by kind',
      labelNames: ['kind'],
      registers: [this.registry],
    });
    return onExport((run) => {
      exports.inc({ kind: run.kind, outcome: run.ok ? 'ok' : 'error' });
      rows.inc({ kind: run.kind }, run.rows);
    });
  }

  /** Times every HTTP request of the API (route template, never the raw URL: bounded labels). */
  instrument(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (req, reply, done) => {
      this.httpDuration.observe(
        {
          method: req.method,
          route: req.routeOptions?.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  onModuleDestroy(): void {
    this.unsubscribe();
    this.unsubscribeRails.forEach((u) => u());
    this.unsubscribeExports();
    this.registry.clear();
  }

  private queues(): Array<[string, Queue]> {
    return Object.values(Queues).map((name) => [
      name,
      this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    ]);
  }

  private async deliveryStatsNow() {
    if (this.deliveryStats && Date.now() - this.deliveryStats.at < DELIVERY_STATS_TTL_MS)
      return this.deliveryStats;
    try {
      const [counts, oldest] = await withTimeout(
        Promise.all([this.deliveries.countByState(), this.deliveries.oldestReceivedAt()]),
        COLLECT_TIMEOUT_MS * 2,
        'MongoDB',
      );
      this.deliveryStats = { at: Date.now(), counts, oldest };
    } catch {
      this.scrapeErrors.inc({ source: 'mongodb' });
    }
    return this.deliveryStats;
  }
}
