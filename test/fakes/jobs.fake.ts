import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { JobState } from '../../src/jobs/job.schema';
import type { JobsService } from '../../src/jobs/jobs.service';

interface FakeJob {
  id: string;
  shopId: string;
  state: JobState;
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
  'create' | 'partStarted' | 'partFinished' | 'failToQueue'
> {
  readonly jobs = new Map<string, FakeJob>();

  async create(scope: ShopScope, _type: string, total: number, parts: number): Promise<string> {
    const id = new Types.ObjectId().toHexString();
    this.jobs.set(id, {
      id,
      shopId: scope.shopId,
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
      return true;
    }
    return false;
  }

  async failToQueue(_scope: ShopScope, id: string, error: string): Promise<void> {
    const j = this.jobs.get(id)!;
    j.state = 'failed';
    j.errors.push(error);
  }
}
