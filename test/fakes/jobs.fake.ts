import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { JobDto } from '../../src/jobs/dto/job.dto';
import type { JobState, JobType } from '../../src/jobs/job.schema';
import type { JobsService } from '../../src/jobs/jobs.service';

interface FakeJob {
  id: string;
  shopId: string;
  type: JobType;
  state: JobState;
  createdAt: Date;
  finishedAt: Date | null;
  /** The pending-event marker of a settled recalculation (the real settle write sets it). */
  eventPendingAt?: Date;
  total: number;
  parts: number;
  done: number;
  failed: number;
  errors: string[];
  finishedParts: number[];
}

/** Job resources in memory, with the service's rules (a part counts once; the last part settles). */
export class FakeJobs implements Pick<
  JobsService,
  | 'create'
  | 'partStarted'
  | 'partFinished'
  | 'failToQueue'
  | 'withPendingEvent'
  | 'eventRecorded'
  | 'pendingEvents'
> {
  readonly jobs = new Map<string, FakeJob>();
  /** The settling time (the service's clock). */
  now = () => new Date();

  async create(scope: ShopScope, type: JobType, total: number, parts: number): Promise<string> {
    const id = new Types.ObjectId().toHexString();
    this.jobs.set(id, {
      id,
      shopId: scope.shopId,
      type,
      createdAt: this.now(),
      finishedAt: null,
      state: 'queued',
      total,
      parts,
      done: 0,
      failed: 0,
      errors: [],
      finishedParts: [],
    });
    return id;
  }

  async partStarted(_scope: ShopScope, id: string): Promise<void> {
    const j = this.jobs.get(id)!;
    if (j.state === 'queued') j.state = 'running';
  }

  async partFinished(
    _scope: ShopScope,
    id: string,
    part: number,
    outcome: { done: number; failed: number; error?: string },
    recalculated = false,
  ): Promise<boolean> {
    const j = this.jobs.get(id)!;
    if (!j.finishedParts.includes(part)) {
      j.finishedParts.push(part);
      j.done += outcome.done;
      j.failed += outcome.failed;
      if (outcome.error) j.errors.push(outcome.error);
    }
    if ((j.state === 'queued' || j.state === 'running') && j.finishedParts.length >= j.parts) {
      j.state = j.failed > 0 ? 'failed' : 'completed';
      j.finishedAt = this.now();
      if (j.type === 'recalculation' || recalculated) j.eventPendingAt = j.finishedAt;
      return true;
    }
    return false;
  }

  async failToQueue(_scope: ShopScope, id: string, error: string): Promise<void> {
    const j = this.jobs.get(id)!;
    j.state = 'failed';
    j.errors.push(error);
  }

  async withPendingEvent(_scope: ShopScope, id: string): Promise<{ job: JobDto; pendingAt: Date | null }> {
    const j = this.jobs.get(id)!;
    return { job: dto(j), pendingAt: j.eventPendingAt ?? null };
  }

  async eventRecorded(_scope: ShopScope, id: string, at: Date): Promise<void> {
    const j = this.jobs.get(id)!;
    if (j.eventPendingAt?.getTime() === at.getTime()) delete j.eventPendingAt;
  }

  async pendingEvents(before: Date, limit: number) {
    return [...this.jobs.values()]
      .filter((j) => j.eventPendingAt && j.eventPendingAt < before)
      .slice(0, limit)
      .map((j) => ({ shopId: j.shopId, job: dto(j), pendingAt: j.eventPendingAt! }));
  }
}

function dto(j: FakeJob): JobDto {
  return {
    id: j.id,
    type: j.type,
    state: j.state,
    total: j.total,
    done: j.done,
    failed: j.failed,
    errors: [...j.errors],
    createdAt: j.createdAt.toISOString(),
    finishedAt: j.finishedAt ? j.finishedAt.toISOString() : null,
  };
}
