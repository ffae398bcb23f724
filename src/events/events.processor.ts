import { InjectQueue, Processor } from '@nestjs/bull';
import { Inject } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { shopScope } from '../common/tenancy';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { DeliverEventJobData, Jobs, OnJob, Queues } from '../queues/jobs';
import { RepeatableJob, RepeatableJobsProcessor } from '../queues/repeatable-jobs';
import { EventDispatcher } from './event-dispatcher.service';
import { EventsSweeper, SweepReport } from './events-sweeper.service';

/**
 * Queue slots for deliveries in one process (WEBHOOK_DELIVERY_CONCURRENCY, read when the class is
 * declared: Bull takes the concurrency with the handler). Per-endpoint limits are EndpointGate's.
 */
const DELIVERY_SLOTS = Number(process.env.WEBHOOK_DELIVERY_CONCURRENCY) || 64;

/** Sends outbound event deliveries (one attempt per job). */
@Processor(Queues.Events)
export class EventsProcessor {
  constructor(private readonly dispatcher: EventDispatcher) {}

  @OnJob({ queue: Queues.Events, name: Jobs.DeliverEvent, concurrency: DELIVERY_SLOTS })
  deliver(job: Job<DeliverEventJobData>): Promise<void> {
    return this.dispatcher.deliver(shopScope(job.data.shopId), job.data);
  }
}

/** The events sweeper: every SWEEP_EVERY_SECONDS, and once at every processor start. */
@Processor(Queues.Maintenance)
export class EventsMaintenanceProcessor extends RepeatableJobsProcessor {
  constructor(
    private readonly sweeper: EventsSweeper,
    @InjectQueue(Queues.Maintenance) queue: Queue,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {
    super(queue, 'the events sweeper', 'EventsSweeper');
  }

  protected repeatableJobs(): RepeatableJob[] {
    return [{ name: Jobs.SweepEvents, everyMs: this.cfg.sweepEveryMs }];
  }

  protected override onStart(): Promise<SweepReport> {
    return this.sweeper.sweep();
  }

  @OnJob({ queue: Queues.Maintenance, name: Jobs.SweepEvents })
  sweep(): Promise<SweepReport> {
    return this.sweeper.sweep();
  }
}
