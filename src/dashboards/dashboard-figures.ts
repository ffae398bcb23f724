import { Decimal } from 'decimal.js';
import { money, round2 } from '../common/money';
import type { RefundGroup, SaleGroup } from '../line-items/sales-figures.repository';

/**
 * The dashboard figures of one period from the grouped rows (DESIGN §12). One rule everywhere: a
 * cancelled order is out of every figure but `cancelledSales` — its sale rows and its refund rows
 * (which only give back what was cancelled) alike.
 * - netSales = Σ salesAfterDiscount of sale rows − refunds
 * - refunds = −Σ salesAfterDiscount of refund rows dated in the period (reported positive)
 * - earnings = Σ payout of those sale and refund rows; commission likewise
 * - totalOrders = distinct orders with a sale row in the period
 * - cancelledSales = Σ salesAfterDiscount of cancelled orders' sale rows
 * - avgOrderValue = Σ salesAfterDiscount of the sale rows ÷ totalOrders (before refunds; 0 without orders)
 * - fulfillmentRate = fulfilled sale rows ÷ sale rows (0–1, 4 dp; 0 without rows)
 * Sale rows are dated by their order's creation, refund rows by the refund. Every sum is decimal,
 * rounded half-up to the cent once.
 */
export interface PeriodFigures {
  netSales: number;
  totalOrders: number;
  refunds: number;
  earnings: number;
  commission: number;
  cancelledSales: number;
  fulfillmentRate: number;
  avgOrderValue: number;
  /** Per vendor (sale rows' vendor): net sales and orders, for the shop's top vendors. */
  vendors: Map<string, { netSales: number; orders: number }>;
}

export interface PeriodRows {
  /** Sale groups for the totals (orders counted once across vendors). */
  totals: SaleGroup[];
  /** Sale groups per vendor (the shop's top vendors); empty when not needed. */
  byVendor: SaleGroup[];
  refunds: RefundGroup[];
  /** Orders (among the refunds') that are cancelled. */
  cancelledOrders: Set<number>;
}

/**
 * Σ of store `$sum`s: each is a sum of 2-dp numbers, off its exact cents by far less than half a
 * cent, so half-up to the cent first gives the exact cents; the rest is exact decimal arithmetic.
 */
const sum = (values: number[]): Decimal => values.reduce<Decimal>((a, v) => a.plus(round2(v)), money(0));

export function periodFigures(rows: PeriodRows): PeriodFigures {
  const sold = rows.totals.filter((g) => !g.cancelled);
  const refunds = rows.refunds.filter((r) => !rows.cancelledOrders.has(r.orderId));
  const sales = sum(sold.map((g) => g.salesAfterDiscount));
  const refunded = sum(refunds.map((r) => r.salesAfterDiscount)).negated();
  const orders = sold.reduce((n, g) => n + g.orders, 0);
  const lines = sold.reduce((n, g) => n + g.lines, 0);
  const fulfilled = sold.reduce((n, g) => n + g.fulfilled, 0);
  return {
    netSales: round2(sales.minus(refunded)),
    totalOrders: orders,
    refunds: round2(refunded),
    earnings: round2(sum([...sold.map((g) => g.payout), ...refunds.map((r) => r.payout)])),
    commission: round2(sum([...sold.map((g) => g.commission), ...refunds.map((r) => r.commission)])),
    cancelledSales: round2(sum(rows.totals.filter((g) => g.cancelled).map((g) => g.salesAfterDiscount))),
    fulfillmentRate:
      lines === 0 ? 0 : money(fulfilled).div(lines).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber(),
    avgOrderValue: orders === 0 ? 0 : round2(money(round2(sales)).div(orders)),
    vendors: vendorFigures(rows.byVendor, refunds),
  };
}

function vendorFigures(groups: SaleGroup[], refunds: RefundGroup[]): PeriodFigures['vendors'] {
  const acc = new Map<string, { sales: Decimal; orders: number }>();
  const at = (id: string) => acc.get(id) ?? acc.set(id, { sales: money(0), orders: 0 }).get(id)!;
  for (const g of groups) {
    if (g.cancelled || !g.vendorId) continue;
    const v = at(String(g.vendorId));
    v.sales = v.sales.plus(round2(g.salesAfterDiscount));
    v.orders += g.orders;
  }
  for (const r of refunds) {
    if (!r.vendorId) continue;
    const v = at(String(r.vendorId));
    v.sales = v.sales.plus(round2(r.salesAfterDiscount));
  }
  return new Map([...acc].map(([id, v]) => [id, { netSales: round2(v.sales), orders: v.orders }]));
}

/** (current − previous) ÷ |previous| × 100, half-up to 2 dp; null when previous is 0. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return round2(money(current).minus(previous).div(money(previous).abs()).times(100));
}
