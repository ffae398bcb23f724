import { Injectable } from '@nestjs/common';
import { dayRangeFilter } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import { round2 } from '../common/money';
import { nextOffset } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import type { ReportRowSource } from '../line-items/line-item-views';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { VendorsRepository } from '../vendors/vendors.repository';
import { VendorReportDto, VendorReportLineItemDto, VendorReportQueryDto } from './dto/vendor-report.dto';

/**
 * GET /v1/report/{vendorId}: a vendor's calculated line items in an order-date range (inclusive UTC
 * days, as payouts), a page at a time, with totals over the whole range. Three reads: the vendor
 * (404 for an unknown or another shop's), the page, and one `$group` that sums and counts.
 */
@Injectable()
export class VendorReportService {
  constructor(
    private readonly vendors: VendorsRepository,
    private readonly lineItems: PayoutRowsRepository,
  ) {}

  async report(scope: ShopScope, vendorId: string, q: VendorReportQueryDto): Promise<VendorReportDto> {
    const range = dayRangeFilter(q.start, q.end);
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    const { items, sums } = await this.lineItems.vendorReport(scope, vendor._id, range, q);
    return {
      total: sums.count,
      nextOffset: nextOffset(q, sums.count),
      // The store adds up numbers already rounded to the cent; the sum is rounded half-up to the cent.
      totals: {
        sales: round2(sums.sales),
        netSales: round2(sums.salesAfterDiscount),
        commission: round2(sums.commission),
        deduction: round2(sums.deduction),
        payout: round2(sums.payout),
        paid: round2(sums.paid),
        balance: round2(sums.balance),
      },
      lineItems: items.map(toReportRow),
    };
  }
}

function toReportRow(l: ReportRowSource): VendorReportLineItemDto {
  return {
    _id: String(l._id),
    type: l.type ?? 'sale',
    refundId: l.refundId ?? null,
    orderId: l.orderId,
    orderName: l.orderName ?? '',
    orderNumber: l.orderNumber ?? 0,
    lineItemId: l.lineItemId,
    name: l.name ?? '',
    sku: l.sku ?? null,
    quantity: l.type === 'refund' ? (l.refundedQuantity ?? 0) : (l.quantity ?? 0),
    date: new Date(l.orderCreatedAt).toISOString(),
    sales: l.sales ?? 0,
    salesAfterDiscount: l.salesAfterDiscount ?? 0,
    tax: l.tax ?? 0,
    costOfItem: l.costOfItem ?? 0,
    commissionPlan: l.commissionPlan ?? null,
    commission: l.commission ?? 0,
    deduction: l.deduction ?? 0,
    payout: l.payout ?? 0,
    paid: l.paid ?? 0,
    balance: l.balance ?? 0,
    payoutStatus: l.payoutStatus ?? 'unpaid',
  };
}
