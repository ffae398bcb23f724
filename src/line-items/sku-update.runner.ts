import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import type { AuditActor, AuditStamp } from '../audit/audit-record';
import { OperationContexts } from '../common/context/operation-context';
import { costOfGoodsPerUnit } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { JobsService } from '../jobs/jobs.service';
import type { SkuUpdateJobData } from '../queues/jobs';
import type { LineItem } from './line-item.schema';
import type { FieldValues } from './line-item-update.rules';
import { LineItemUpdatesService } from './line-item-updates.service';
import { LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { RECALC_JOB_SIZE, RecalculationService } from './recalculation.service';

/** Lines read, written and recalculated per step: bounded memory whatever the SKU's size. */
export const SKU_UPDATE_PAGE = RECALC_JOB_SIZE;

/**
 * The job half of a by-SKU update (`line-item-update`): recalculates the lines the request wrote
 * (when asked), then pages through the SKU's remaining lines after the request's last one, writing
 * the same figures (frozen lines skipped, as inline) and recalculating them; the SKU record's cost of
 * goods comes from the newest line, as inline. Retried from its start: every step is idempotent
 * (the same figures written again, a recalculation recomputes the same values).
 */
@Injectable()
export class SkuUpdateRunner {
  private readonly logger = new Logger('SkuUpdate');

  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly updates: LineItemUpdatesService,
    private readonly recalculation: RecalculationService,
    private readonly summaries: OrderSummaryRefresher,
    private readonly jobs: JobsService,
  ) {}

  async run(scope: ShopScope, data: SkuUpdateJobData, attempt: { final: boolean }): Promise<void> {
    const track = <T>(fn: () => Promise<T>) => OperationContexts.phase('job', fn);
    await track(() => this.jobs.partStarted(scope, data.jobId));
    try {
      const { done, skipped } = await this.work(scope, data);
      const recalculated = Boolean(data.recalculate);
      const settled = await track(() =>
        this.jobs.partFinished(scope, data.jobId, 0, { done, failed: 0 }, recalculated),
      );
      // A by-SKU update that recalculated its lines tells it like a recalculation job (DESIGN §11).
      if (settled && recalculated)
        await OperationContexts.phase('events', () => this.recalculation.recalculated(scope, data.jobId));
      this.logger.log({ jobId: data.jobId, shopId: scope.shopId, done, skipped }, 'By-SKU update finished');
    } catch (err) {
      if (attempt.final) {
        const errorId = randomUUID();
        this.logger.error(
          { errorId, jobId: data.jobId, err: (err as Error)?.message },
          'By-SKU update failed',
        );
        await track(() =>
          this.jobs.partFinished(
            scope,
            data.jobId,
            0,
            {
              done: 0,
              failed: 1,
              error: `The remaining line items could not be updated (errorId ${errorId})`,
            },
            Boolean(data.recalculate),
          ),
        ).catch(() => undefined);
      }
      throw err;
    }
  }

  private async work(scope: ShopScope, data: SkuUpdateJobData): Promise<{ done: number; skipped: number }> {
    const fields = data.fields as FieldValues;
    const hasFields = Object.keys(fields).length > 0;
    const stamp = stampOf(data.audit);
    let done = 0;
    let skipped = 0;
    if (data.recalculate && data.recalcIds.length > 0) {
      await this.recalculation.recalculate(scope, data.recalcIds);
      done += data.recalcIds.length;
    }
    let after = data.after
      ? { orderCreatedAt: new Date(data.after.orderCreatedAt), _id: new Types.ObjectId(data.after.id) }
      : null;
    let newest: LineItem | null = null;
    for (;;) {
      const page = await this.lineItems.findBySkuPage(scope, data.sku, after, SKU_UPDATE_PAGE);
      if (page.length === 0) break;
      after = { orderCreatedAt: page[page.length - 1].orderCreatedAt, _id: page[page.length - 1]._id };
      const sales = page.filter((l) => l.type !== 'refund'); // refund rows are never rewritten
      const live = sales.filter((l) => !l.frozen);
      const frozenNow = hasFields
        ? await this.updates.writeFields(
            scope,
            live.map((line) => ({ line, fields })),
            stamp,
          )
        : new Set<string>();
      const accepted = live.filter((l) => !frozenNow.has(String(l._id)));
      skipped += sales.length - accepted.length;
      done += sales.length;
      if (accepted.length > 0) newest = accepted[accepted.length - 1];
      if (data.recalculate && accepted.length > 0)
        await this.recalculation.recalculate(
          scope,
          accepted.map((l) => String(l._id)),
        );
      else if (hasFields && accepted.length > 0)
        await this.summaries.refresh(scope, [...new Set(accepted.map((l) => l.orderId))]);
    }
    if (fields.costOfItem !== undefined && newest) {
      const perUnit = costOfGoodsPerUnit(fields.costOfItem as number, newest.quantity);
      if (perUnit !== null)
        await this.updates.setCosts(scope, [{ sku: data.sku, costOfGoods: perUnit }], stamp);
    }
    return { done, skipped };
  }
}

function stampOf(a: SkuUpdateJobData['audit']): AuditStamp | null {
  if (!a) return null;
  return {
    key: a.key,
    at: new Date(a.at),
    actor: a.actor as AuditActor,
    requestId: a.requestId,
    clientRequestId: a.clientRequestId ?? null,
  };
}
