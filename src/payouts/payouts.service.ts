import { Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { NotFoundError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { vendorDayRangeFilter } from '../common/dates/vendor-day-range.query';
import {
  CreatePayoutBatchesDto,
  PayoutBatchDetailDto,
  PayoutBatchesQueuedDto,
  PayoutBatchListDto,
  PayoutBatchListQueryDto,
} from './dto/payout-batch.dto';
import { PayoutListDto, PayoutListQueryDto } from './dto/payout.dto';
import { toPayoutBatchResponse, toPayoutRow } from './payout.mapper';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { BatchAudit, PayoutEngine } from './payout-engine.service';
import type { AuditRecord } from '../audit/audit-record';
import type { Readable } from 'node:stream';
import { csvStream, reportExport } from '../common/csv';
import type { PayoutRowFilter } from '../line-items/line-item-views';
import { PAYOUT_EXPORT_COLUMNS } from './payout-export.columns';
import { TransfersService } from '../transfers/transfers.service';

/** The rows a payout list query selects (the page and the CSV export alike). */
function payoutFilter(q: PayoutListQueryDto): PayoutRowFilter {
  return {
    ...vendorDayRangeFilter(q),
    payoutStatus: q.status,
    fulfillmentStatus: q.fulfillment,
    type: q.type,
  };
}

@Injectable()
export class PayoutsService {
  constructor(
    private readonly lineItems: PayoutRowsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly engine: PayoutEngine,
    private readonly audit: AuditTrail,
    private readonly transfers: TransfersService,
  ) {}

  async list(scope: ShopScope, q: PayoutListQueryDto): Promise<PayoutListDto> {
    const { total, items } = await this.lineItems.payoutRows(scope, payoutFilter(q), q);
    return { total, nextOffset: nextOffset(q, total), payouts: items.map(toPayoutRow) };
  }

  /**
   * Every row of the list's filters (every page: `limit`/`offset` do not apply) as CSV, streamed
   * from a database cursor. The export is audited when it starts (who took which rows out).
   */
  async exportCsv(scope: ShopScope, q: PayoutListQueryDto): Promise<Readable> {
    await this.audit.recordNow(
      scope,
      'shop.payouts.export',
      { type: 'shop', id: scope.shopId },
      {
        format: 'csv',
        filters: {
          vendorId: q.vendorId,
          start: q.start,
          end: q.end,
          status: q.status,
          fulfillment: q.fulfillment,
          type: q.type,
        },
      },
    );
    const started = performance.now();
    return csvStream(
      PAYOUT_EXPORT_COLUMNS,
      this.lineItems.streamPayoutRows(scope, payoutFilter(q)),
      (rows, err) =>
        reportExport({ kind: 'payouts', rows, ok: !err, seconds: (performance.now() - started) / 1000 }),
    );
  }

  /**
   * Each batch the trigger creates gets a `payout_batch.create` event (a repeated trigger creates
   * none: it answers the existing batches).
   */
  async triggerBatches(scope: ShopScope, body: CreatePayoutBatchesDto): Promise<PayoutBatchesQueuedDto> {
    const stamp = this.audit.begin();
    const events = new Map<string, AuditRecord>();
    const audit: BatchAudit | null = stamp && {
      stamp,
      eventFor: (b) => {
        const event = this.audit.created(
          scope,
          stamp,
          'payout_batch.create',
          { type: 'payout_batch', id: b._id },
          {
            vendorId: b.vendorId,
            vendorName: b.vendorName,
            periodEnd: b.periodEnd,
            cutoff: b.cutoff,
            status: 'queued',
          },
        );
        if (event) events.set(String(b._id), event);
        return event;
      },
    };
    const batches = await this.engine.trigger(scope, body, audit);
    const createdNow = batches.filter((b) => stamp && b.auditPendingKey === stamp.key).map((b) => b._id);
    await this.audit.commit(scope, this.batches.outbox, stamp, [...events.values()], createdNow);
    return { batchIds: batches.map((b) => String(b._id)), batches: batches.map(toPayoutBatchResponse) };
  }

  async listBatches(scope: ShopScope, q: PayoutBatchListQueryDto): Promise<PayoutBatchListDto> {
    const { total, items } = await this.batches.page(
      scope,
      { vendorId: q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined, status: q.status },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), batches: items.map(toPayoutBatchResponse) };
  }

  /** The batch with its transfer (read-only lookup by batch id: one per batch). */
  async getBatch(scope: ShopScope, id: string): Promise<PayoutBatchDetailDto> {
    const batch = await this.batches.findById(scope, id);
    if (!batch) throw new NotFoundError('Payout batch');
    return { ...toPayoutBatchResponse(batch), transfer: await this.transfers.ofBatch(scope, batch._id) };
  }
}
