import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ShopScope } from '../common/tenancy';
import { systemQuery } from '../database/tenant-guard.plugin';
import { TenantRepository } from '../database/tenant-repository';
import { clearMarker, markedBefore } from '../event-port/pending-event-marker';
import { JobRecord, JobType } from './job.schema';

@Injectable()
export class JobsRepository extends TenantRepository<JobRecord> {
  constructor(@InjectModel(JobRecord.name) model: Model<JobRecord>) {
    super(model);
  }

  async create(scope: ShopScope, init: { type: JobType; total: number; parts: number }): Promise<JobRecord> {
    const doc = await this.model.create({ ...init, ...this.owner(scope) });
    return doc.toObject();
  }

  findById(scope: ShopScope, id: string): Promise<JobRecord | null> {
    return this.findOneById(scope, id);
  }

  /** queued → running, once. */
  async markStarted(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { _id: id, state: 'queued' }), {
        $set: { state: 'running', startedAt: at },
      })
      .exec();
  }

  /**
   * Records one part's outcome, once per part. Returns the job after the write, or as it stands when
   * this part was already recorded (a retried part); null for an unknown job.
   */
  async recordPart(
    scope: ShopScope,
    id: Types.ObjectId,
    part: number,
    outcome: { done: number; failed: number; error?: string },
  ): Promise<JobRecord | null> {
    const push: Record<string, unknown> = { finishedParts: part };
    if (outcome.error) push.errorMessages = outcome.error;
    const updated = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, finishedParts: { $ne: part } }),
        { $push: push, $inc: { done: outcome.done, failed: outcome.failed } },
        { new: true },
      )
      .lean<JobRecord>()
      .exec();
    return updated ?? this.findOneById(scope, id);
  }

  /** Settles a job that is not settled yet; `eventPending`: its event is pending from this write on. */
  async settle(
    scope: ShopScope,
    id: Types.ObjectId,
    state: 'completed' | 'failed',
    at: Date,
    error?: string,
    eventPending = false,
  ) {
    const update: Record<string, unknown> = {
      $set: { state, finishedAt: at, ...(eventPending ? { eventPendingAt: at } : {}) },
    };
    if (error) update.$push = { errorMessages: error };
    await this.model
      .updateOne(this.scoped(scope, { _id: id, state: { $in: ['queued', 'running'] } }), update)
      .exec();
  }

  /** The job's event is recorded: its marker goes (where it still holds `at`). */
  async eventRecorded(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<void> {
    await clearMarker(this.model, (f) => this.scoped(scope, f), [id], at);
  }
}

/** Cross-shop retention of job records and the events sweeper's scan (the opt-outs of the tenant guard for `jobs`). */
@Injectable()
export class SystemJobsRepository {
  constructor(@InjectModel(JobRecord.name) private readonly model: Model<JobRecord>) {}

  async purgeFinished(before: Date): Promise<number> {
    const res = await this.model
      .deleteMany({ finishedAt: { $lt: before } })
      .setOptions(systemQuery('jobs retention: purge old finished jobs'))
      .exec();
    return res.deletedCount;
  }

  /** Settled jobs whose event a crash left unrecorded (served by `{eventPendingAt}`). */
  eventPending(before: Date, limit: number): Promise<JobRecord[]> {
    return markedBefore<JobRecord>(this.model, 'settled jobs', { before, limit });
  }
}
