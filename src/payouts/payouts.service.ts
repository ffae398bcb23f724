import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { LineItemsRepository } from '../line-items/line-items.repository';
import { vendorDayRangeFilter } from '../common/dates/vendor-day-range.query';
import {
  CreatePayoutBatchesDto,
  PayoutBatchDto,
  PayoutBatchesQueuedDto,
  PayoutBatchListDto,
  PayoutBatchListQueryDto,
} from './dto/payout-batch.dto';
import { PayoutListDto, PayoutListQueryDto } from './dto/payout.dto';
import { toPayoutBatchResponse, toPayoutRow } from './payout.mapper';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { PayoutEngine } from './payout-engine.service';

@Injectable()
export class PayoutsService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly engine: PayoutEngine,
  ) {}

  async list(scope: ShopScope, q: PayoutListQueryDto): Promise<PayoutListDto> {
    const { total, items } = await this.lineItems.payoutRows(
      scope,
      {
        ...vendorDayRangeFilter(q),
        payoutStatus: q.status,
        fulfillmentStatus: q.fulfillment,
      },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), payouts: items.map(toPayoutRow) };
  }

  async triggerBatches(scope: ShopScope, body: CreatePayoutBatchesDto): Promise<PayoutBatchesQueuedDto> {
    const batches = await this.engine.trigger(scope, body);
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

  async getBatch(scope: ShopScope, id: string): Promise<PayoutBatchDto> {
    const batch = await this.batches.findById(scope, id);
    if (!batch) throw new NotFoundError('Payout batch');
    return toPayoutBatchResponse(batch);
  }
}
