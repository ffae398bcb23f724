import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import type { PayoutRunDto, PayoutRunListDto, PayoutRunListQueryDto } from './dto/payout-run.dto';
import { toPayoutRunResponse } from './payout-run.mapper';
import { PayoutRunsRepository } from './payout-runs.repository';

/** GET /v1/payouts/runs and /v1/payouts/runs/{id} (DESIGN §15). */
@Injectable()
export class PayoutRunsService {
  constructor(private readonly runs: PayoutRunsRepository) {}

  async list(scope: ShopScope, q: PayoutRunListQueryDto): Promise<PayoutRunListDto> {
    if (q.start && q.end && q.start > q.end) {
      throw new ValidationError('start must be on or before end', {
        fields: { start: ['start must be on or before end'] },
      });
    }
    const dueDate =
      q.start || q.end
        ? { ...(q.start ? { $gte: q.start } : {}), ...(q.end ? { $lte: q.end } : {}) }
        : undefined;
    const { total, items } = await this.runs.page(scope, { state: q.state, dueDate }, q);
    return { total, nextOffset: nextOffset(q, total), runs: items.map(toPayoutRunResponse) };
  }

  async get(scope: ShopScope, id: string): Promise<PayoutRunDto> {
    const run = await this.runs.findById(scope, id);
    if (!run) throw new NotFoundError('Payout run');
    return toPayoutRunResponse(run);
  }
}
