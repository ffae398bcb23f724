import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import type { ShopScope } from '../common/tenancy';
import type { BatchPaidLineItem } from '../line-items/line-item-views';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { heldNet } from './batch-marking';

/**
 * What a batch of the vendor up to `cutoff` would net if it ran now (DESIGN §15 eligibility): the
 * same two reads a run claims and decides from (the due rows and the UNPAID adjustments up to the
 * cut-off) netted by the same function (`heldNet`, each row at the balance a claim would record).
 */
@Injectable()
export class PayoutEstimator {
  constructor(
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
  ) {}

  async net(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<number> {
    const [rows, adjustments] = await Promise.all([
      this.lineItems.listPayable(scope, vendorId, cutoff),
      this.adjustments.listPayable(scope, vendorId, cutoff),
    ]);
    return heldNet(
      rows.map((r) => ({ _id: r._id, paid: r.paid, batchPaidAmount: r.balance }) as BatchPaidLineItem),
      adjustments,
    );
  }
}
