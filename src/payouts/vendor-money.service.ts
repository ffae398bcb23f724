import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { ForbiddenError } from '../common/errors';
import { readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { authConfig, type AuthConfig } from '../config/configuration';
import type { MoneyRowSource } from '../line-items/line-item-views';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { figuresOf } from '../line-items/line-figures.mapper';
import type { PayoutRowsPageDto, PayoutRowsQueryDto, PayoutRowWithFiguresDto } from './dto/vendor-money.dto';
import type { VendorBalanceDto } from './dto/vendor-balance.dto';
import { VendorBalanceService } from './vendor-balance.service';

/** The vendor's own money (V2): its payout rows, sale and refund, and its balance. */
@Injectable()
export class VendorMoneyService {
  constructor(
    private readonly lineItems: PayoutRowsRepository,
    private readonly balances: VendorBalanceService,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  /** Payout rows newest first: a vendor token's own, a shop token's every row (cursor paging). */
  async rows(scope: ShopScope, q: PayoutRowsQueryDto): Promise<PayoutRowsPageDto> {
    const vendorId = scope.vendorId ? new Types.ObjectId(scope.vendorId) : undefined;
    const context = `payouts:${scope.shopId}:${scope.vendorId ?? '*'}`;
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      context,
      (window) => this.lineItems.moneyRowsPage(scope, { vendorId, type: q.type }, window),
      (r) => ({ t: new Date(r.orderCreatedAt).getTime(), id: String(r._id) }),
    );
    return { items: page.items.map(toRowWithFigures), pageInfo: page.pageInfo, totalCount: page.totalCount };
  }

  async balance(scope: ShopScope): Promise<VendorBalanceDto> {
    // The route admits vendor tokens only; this guards the assumption, not the caller.
    if (!scope.vendorId) throw new ForbiddenError('A vendor token is needed for the balance');
    return this.balances.get(scope, scope.vendorId);
  }
}

function toRowWithFigures(r: MoneyRowSource): PayoutRowWithFiguresDto {
  const refund = r.type === 'refund';
  return {
    _id: String(r._id),
    type: refund ? 'refund' : 'sale',
    date: r.orderCreatedAt.toISOString(),
    vendorId: r.vendorId ? String(r.vendorId) : '',
    vendorName: r.vendorName ?? '',
    orderId: r.orderId,
    orderName: r.orderName,
    orderNumber: r.orderNumber,
    lineItemId: r.lineItemId,
    refundId: r.refundId ?? null,
    refundLineItemId: r.refundLineItemId ?? null,
    lineItemName: r.name,
    sku: r.sku ?? null,
    quantity: refund ? (r.refundedQuantity ?? null) : r.quantity,
    figures: figuresOf(r),
    paid: r.paid,
    balance: r.balance,
    payoutStatus: r.payoutStatus,
    batchId: r.batchId ?? null,
  };
}
