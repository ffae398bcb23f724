import { Injectable, OnModuleInit } from '@nestjs/common';
import { shopScope } from '../common/tenancy';
import { EventSink, type SourcedEvent } from '../event-port/event-sink';
import type { JobDto } from '../jobs/dto/job.dto';
import { JobsService } from '../jobs/jobs.service';

/**
 * `line_items.recalculated` (DESIGN §11): the settled job as GET /v1/jobs/{id} shows it, keyed by
 * the job id, dated when it settled — whichever part settles it, a retry, or the events sweeper's
 * finisher makes the same event.
 */
export function recalculatedEvent(job: JobDto): SourcedEvent {
  return {
    key: `line_items.recalculated:${job.id}`,
    type: 'line_items.recalculated',
    createdAt: job.finishedAt ? new Date(job.finishedAt) : new Date(job.createdAt),
    object: { ...job },
  };
}

/**
 * The events sweeper's finisher of `line_items.recalculated`: a recalculation job whose settling
 * write marked its event pending, and whose part died before recording it (the job is settled, so
 * no retry of a part emits it again).
 */
@Injectable()
export class RecalculationEventsFinisher implements OnModuleInit {
  constructor(
    private readonly sink: EventSink,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({
      name: 'line_items.recalculated',
      finish: (before, limit) => this.finish(before, limit),
    });
  }

  async finish(before: Date, limit: number): Promise<number> {
    const pending = await this.jobs.pendingEvents(before, limit);
    for (const { shopId, job, pendingAt } of pending) {
      const scope = shopScope(shopId);
      if (await this.sink.emit(scope, [recalculatedEvent(job)]))
        await this.jobs.eventRecorded(scope, job.id, pendingAt);
    }
    return pending.length;
  }
}
