import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { NotFoundError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { JobDto } from './dto/job.dto';
import { JobRecord, JobType } from './job.schema';
import { jobsConfig, JobsConfig } from '../config/configuration';
import { JobsRepository, SystemJobsRepository } from './jobs.repository';

export function toJobResponse(j: JobRecord): JobDto {
  return {
    id: String(j._id),
    type: j.type,
    state: j.state,
    total: j.total,
    done: j.done,
    failed: j.failed,
    errors: j.errorMessages ?? [],
    createdAt: j.createdAt.toISOString(),
    finishedAt: j.finishedAt ? j.finishedAt.toISOString() : null,
  };
}

/** Job resources: created by the service that queues the work, advanced by its parts. */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly system: SystemJobsRepository,
    private readonly clock: Clock,
    @Inject(jobsConfig.KEY) private readonly cfg: JobsConfig,
  ) {}

  /** Retention: deletes job records finished longer ago than the retention period. */
  purgeFinished(): Promise<number> {
    return this.system.purgeFinished(new Date(this.clock.now().getTime() - this.cfg.retentionMs));
  }

  async create(scope: ShopScope, type: JobType, total: number, parts: number): Promise<string> {
    return String((await this.jobs.create(scope, { type, total, parts }))._id);
  }

  async get(scope: ShopScope, id: string): Promise<JobDto> {
    const job = await this.jobs.findById(scope, id);
    if (!job) throw new NotFoundError('Job');
    return toJobResponse(job);
  }

  async partStarted(scope: ShopScope, id: string): Promise<void> {
    await this.jobs.markStarted(scope, new Types.ObjectId(id), this.clock.now());
  }

  /**
   * One part's outcome; the part that completes the set settles the job. Whether this call settled
   * it (its `line_items.recalculated` event follows; a repeat finds it settled already). A job that
   * recalculated lines — a recalculation, or a by-SKU update asked to recalculate (`recalculated`) —
   * has that event, marked pending in its settling write.
   */
  async partFinished(
    scope: ShopScope,
    id: string,
    part: number,
    outcome: { done: number; failed: number; error?: string },
    recalculated = false,
  ): Promise<boolean> {
    const _id = new Types.ObjectId(id);
    const job = await this.jobs.recordPart(scope, _id, part, outcome);
    if (!job || job.state === 'completed' || job.state === 'failed') return false;
    if (job.finishedParts.length >= job.parts) {
      // A recalculation's settling write marks its line_items.recalculated pending (DESIGN §11).
      const state = job.failed > 0 ? 'failed' : 'completed';
      const event = job.type === 'recalculation' || recalculated;
      await this.jobs.settle(scope, _id, state, this.clock.now(), undefined, event);
      return true;
    }
    return false;
  }

  /** The job with the time its event is pending since (null: not pending, or already recorded). */
  async withPendingEvent(scope: ShopScope, id: string): Promise<{ job: JobDto; pendingAt: Date | null }> {
    const job = await this.jobs.findById(scope, id);
    if (!job) throw new NotFoundError('Job');
    return { job: toJobResponse(job), pendingAt: job.eventPendingAt ?? null };
  }

  /** The job's event is recorded: its pending-event marker goes (where it still holds `at`). */
  eventRecorded(scope: ShopScope, id: string, at: Date): Promise<void> {
    return this.jobs.eventRecorded(scope, new Types.ObjectId(id), at);
  }

  /** Every shop's settled jobs whose event is pending since before `before` (the events sweeper). */
  async pendingEvents(
    before: Date,
    limit: number,
  ): Promise<Array<{ shopId: string; job: JobDto; pendingAt: Date }>> {
    return (await this.system.eventPending(before, limit)).map((j) => ({
      shopId: String(j.shopId),
      job: toJobResponse(j),
      pendingAt: j.eventPendingAt!,
    }));
  }

  /** The work could not even be queued: the job fails at once. */
  async failToQueue(scope: ShopScope, id: string, error: string): Promise<void> {
    await this.jobs.settle(scope, new Types.ObjectId(id), 'failed', this.clock.now(), error);
  }
}
