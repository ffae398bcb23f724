import { profitOf, sumAmounts } from '../common/money';
import type { RolledUpFulfillment, RolledUpPayout } from './order-summary.schema';

/** What a summary needs from each line item. */
export interface SummaryLine {
  vendorId: { toString(): string } | null;
  /** Refund rows (DESIGN §6) count in the money totals and the payout status, not as lines or units. */
  type?: 'sale' | 'refund' | null;
  quantity: number;
  sales: number;
  salesAfterDiscount: number;
  costOfItem: number;
  commission: number;
  payout: number;
  fulfillmentStatus: string;
  payoutStatus: string;
  fulfillment?: { createdAt?: Date | null; deliveredAt?: Date | null } | null;
}

/** Order-level facts shared by all of an order's summaries. */
export interface SummaryOrderContext {
  orderId: number;
  orderName: string;
  orderNumber: number;
  orderCreatedAt: Date;
  financialStatus: string;
  cancelled: boolean;
  /** Known to ingestion only; absent on a refresh from line items (what is stored stays). */
  notes?: string | null;
  customer?: Record<string, unknown> | null;
}

export interface SummaryTotals {
  totalQuantity: number;
  lineItemCount: number;
  totalSales: number;
  totalNetSales: number;
  totalCostOfItem: number;
  totalProfit: number;
  totalCommission: number;
  totalPayout: number;
  status: string[];
  fulfillmentStatus: RolledUpFulfillment;
  vendorPayoutStatus: RolledUpPayout;
  shipDate: Date | null;
  deliveryDate: Date | null;
}

/** Totals and roll-ups over some of an order's line items (all of them, or one vendor's). */
export function summarise(rows: SummaryLine[]): SummaryTotals {
  const lines = rows.filter((l) => l.type !== 'refund');
  const totalNetSales = sumAmounts(rows.map((l) => l.salesAfterDiscount));
  const totalCostOfItem = sumAmounts(rows.map((l) => l.costOfItem));
  const fulfilled = lines.filter((l) => l.fulfillmentStatus === 'fulfilled').length;
  const paid = rows.filter((l) => l.payoutStatus === 'paid').length;
  const unpaid = rows.filter((l) => l.payoutStatus === 'unpaid').length;
  const shipDates = lines.map((l) => l.fulfillment?.createdAt).filter((d): d is Date => !!d);
  const deliveryDates = lines.map((l) => l.fulfillment?.deliveredAt).filter((d): d is Date => !!d);
  return {
    totalQuantity: lines.reduce((n, l) => n + (l.quantity || 0), 0),
    lineItemCount: lines.length,
    totalSales: sumAmounts(rows.map((l) => l.sales)),
    totalNetSales,
    totalCostOfItem,
    totalProfit: profitOf(totalNetSales, totalCostOfItem),
    totalCommission: sumAmounts(rows.map((l) => l.commission)),
    totalPayout: sumAmounts(rows.map((l) => l.payout)),
    status: [...new Set(lines.map((l) => l.fulfillmentStatus))].sort(),
    fulfillmentStatus:
      lines.length > 0 && fulfilled === lines.length
        ? 'fulfilled'
        : fulfilled > 0
          ? 'partial'
          : 'unfulfilled',
    vendorPayoutStatus:
      rows.length > 0 && paid === rows.length ? 'paid' : unpaid === rows.length ? 'unpaid' : 'partial',
    shipDate: shipDates.length ? new Date(Math.min(...shipDates.map((d) => d.getTime()))) : null,
    deliveryDate: deliveryDates.length ? new Date(Math.max(...deliveryDates.map((d) => d.getTime()))) : null,
  };
}

export interface OrderSummaryParts {
  shop: SummaryTotals;
  /** One entry per vendor with line items on the order; unassigned lines count only at shop level. */
  vendors: Array<{ vendorId: string; totals: SummaryTotals }>;
}

export function buildOrderSummaries(lines: SummaryLine[]): OrderSummaryParts {
  const byVendor = new Map<string, SummaryLine[]>();
  for (const l of lines) {
    if (!l.vendorId) continue;
    const key = l.vendorId.toString();
    const list = byVendor.get(key);
    if (list) list.push(l);
    else byVendor.set(key, [l]);
  }
  return {
    shop: summarise(lines),
    vendors: [...byVendor.entries()].map(([vendorId, vl]) => ({ vendorId, totals: summarise(vl) })),
  };
}
