import { Injectable } from '@nestjs/common';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { Clock } from '../common/clock/clock';
import { dayEnd, dayOf } from '../common/dates/day-range';
import { ForbiddenError } from '../common/errors';
import { fromCents, sumAmounts } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { type DateRange, SalesFiguresRepository } from '../line-items/sales-figures.repository';
import { receivedTotal } from '../payouts/vendor-payouts.service';
import { ProductsRepository } from '../products/products.repository';
import { VendorTransfersRepository } from '../transfers/vendor-transfers.repository';
import { VendorsRepository } from '../vendors/vendors.repository';
import { changePercent, PeriodFigures, periodFigures } from './dashboard-figures';
import { dashboardPeriods, type DashboardPeriods } from './dashboard-period';
import type { DashboardQueryDto, ShopDashboardDto, VendorDashboardDto } from './dto/dashboard.dto';

const TOP_VENDORS = 5;

/**
 * The dashboards (DESIGN §12): figures summed from line items by a few grouped reads per period
 * (sales-figures.repository.ts), the same rule for the vendor's and the shop's (dashboard-figures.ts).
 */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly sales: SalesFiguresRepository,
    private readonly transfers: VendorTransfersRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly products: ProductsRepository,
    private readonly vendors: VendorsRepository,
    private readonly clock: Clock,
  ) {}

  async vendor(scope: ShopScope, q: DashboardQueryDto): Promise<VendorDashboardDto> {
    if (!scope.vendorId) throw new ForbiddenError('A vendor token is needed for the vendor dashboard');
    const periods = dashboardPeriods(q, this.clock.now());
    const [cur, prev] = await Promise.all([
      this.figures(scope, periods.current, false),
      periods.previous ? this.figures(scope, periods.previous, false) : null,
    ]);
    const compare = (key: 'netSales' | 'totalOrders' | 'refunds' | 'earnings') =>
      prev && { current: cur[key], previous: prev[key], changePercent: changePercent(cur[key], prev[key]) };
    return {
      period: periodOf(periods),
      netSales: cur.netSales,
      totalOrders: cur.totalOrders,
      refunds: cur.refunds,
      earnings: cur.earnings,
      cancelledSales: cur.cancelledSales,
      fulfillmentRate: cur.fulfillmentRate,
      avgOrderValue: cur.avgOrderValue,
      comparison: prev && {
        netSales: compare('netSales')!,
        totalOrders: compare('totalOrders')!,
        refunds: compare('refunds')!,
        earnings: compare('earnings')!,
      },
    };
  }

  async shop(scope: ShopScope, q: DashboardQueryDto): Promise<ShopDashboardDto> {
    if (scope.vendorId) throw new ForbiddenError('A shop token is needed for the shop dashboard');
    const periods = dashboardPeriods(q, this.clock.now());
    const today = dayEnd(dayOf(this.clock.now()))!;
    const [cur, paid, owed, adjustments, productsCount, vendors] = await Promise.all([
      this.figures(scope, periods.current, true),
      this.transfers.sums(scope, undefined, ['paid', 'reversed'], periods.current),
      this.balances.shopCents(scope),
      this.adjustments.shopUnpaidSum(scope, today),
      this.products.countLive(scope),
      this.vendors.listAll(scope),
    ]);
    const names = new Map(vendors.map((v) => [String(v._id), v.vendorName]));
    const topVendors = [...cur.vendors]
      .filter(([id]) => names.has(id))
      .sort(([a, x], [b, y]) => y.netSales - x.netSales || (a < b ? -1 : 1))
      .slice(0, TOP_VENDORS)
      .map(([vendorId, v]) => ({
        vendorId,
        vendorName: names.get(vendorId)!,
        netSales: v.netSales,
        orders: v.orders,
      }));
    return {
      period: periodOf(periods),
      totalOrders: cur.totalOrders,
      totalRevenue: cur.netSales,
      commissionRevenue: cur.commission,
      totalPayouts: receivedTotal(paid),
      pendingPayouts: sumAmounts([fromCents(owed.dueCents), fromCents(owed.pendingCents), adjustments]),
      productsCount,
      activeVendors: vendors.filter((v) => v.active !== false).length,
      fulfillmentRate: cur.fulfillmentRate,
      avgOrderValue: cur.avgOrderValue,
      topVendors,
    };
  }

  /**
   * One period's figures: the sale groups (one read per cancellation value, totals and per vendor
   * alike) and the refund groups side by side, then the cancelled orders among the refunded.
   */
  private async figures(scope: ShopScope, range: DateRange, byVendor: boolean): Promise<PeriodFigures> {
    const [sales, refunds] = await Promise.all([
      this.sales.saleGroups(scope, range, byVendor),
      this.sales.refundGroups(scope, range),
    ]);
    const cancelledOrders = await this.sales.cancelledOrders(scope, [
      ...new Set(refunds.map((r) => r.orderId)),
    ]);
    return periodFigures({ totals: sales.totals, byVendor: sales.byVendor, refunds, cancelledOrders });
  }
}

function periodOf(p: DashboardPeriods) {
  return { start: p.start, end: p.end, range: p.range };
}
