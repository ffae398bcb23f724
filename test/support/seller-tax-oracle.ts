// The seller tax report e2e's oracle: the line figures of DESIGN §6 and the refund shares in BigInt
// cents, recomputed from the order's inputs (never read back from the API), summed per vendor and quarter.
import { cents, divHalfUp, num } from './cents';

export const SETTINGS = { taxOnCommissionRate: 18, tcsRate: 1, globalDeductionRate: 2 };

/** The figures of one sale line in cents (DESIGN §6, half-up at each named figure). */
export interface Fig {
  sad: bigint;
  commission: bigint;
  toc: bigint;
  tcs: bigint;
  tgd: bigint;
  deduction: bigint;
}
const FIGS = ['sad', 'commission', 'toc', 'tcs', 'tgd', 'deduction'] as const;

export function saleLine(price: string, quantity: number, discount: string, ratePct: bigint): Fig {
  const sad = cents(price) * BigInt(quantity) - cents(discount);
  const commission = divHalfUp(sad * ratePct, 100n);
  return {
    sad,
    commission,
    toc: divHalfUp(commission * BigInt(SETTINGS.taxOnCommissionRate), 100n),
    tcs: divHalfUp(sad * BigInt(SETTINGS.tcsRate), 100n),
    tgd: divHalfUp(sad * BigInt(SETTINGS.globalDeductionRate), 100n),
    deduction: 0n,
  };
}
/** A refund row of k of n units that does not complete the line: −half-up(figure × k / n). */
export const share = (f: Fig, k: number, n: number): Fig =>
  Object.fromEntries(FIGS.map((x) => [x, -divHalfUp(f[x] * BigInt(k), BigInt(n))])) as unknown as Fig;
/** The refund that completes the line: what is left of each figure, negative. */
export const rest = (f: Fig, ...before: Fig[]): Fig =>
  Object.fromEntries(FIGS.map((x) => [x, -(f[x] + before.reduce((n, b) => n + b[x], 0n))])) as unknown as Fig;

/** The oracle's quarters: per vendor name and quarter (1–4), the sums in cents and the orders. */
export class Oracle {
  readonly q = new Map<
    string,
    Array<{ sales: bigint; refunds: bigint; c: bigint; f: bigint; t: bigint; orders: Set<number> }>
  >();
  private at(vendor: string, quarter: number) {
    if (!this.q.has(vendor))
      this.q.set(
        vendor,
        [1, 2, 3, 4].map(() => ({ sales: 0n, refunds: 0n, c: 0n, f: 0n, t: 0n, orders: new Set<number>() })),
      );
    return this.q.get(vendor)![quarter - 1];
  }
  private add(vendor: string, quarter: number, fig: Fig, refund: boolean) {
    const s = this.at(vendor, quarter);
    if (refund) s.refunds += fig.sad;
    else s.sales += fig.sad;
    s.c += fig.commission + fig.toc;
    s.f += fig.tgd + fig.deduction;
    s.t += fig.tcs;
  }
  sale(vendor: string, quarter: number, orderId: number, fig: Fig) {
    this.add(vendor, quarter, fig, false);
    this.at(vendor, quarter).orders.add(orderId);
  }
  refund(vendor: string, quarter: number, fig: Fig) {
    this.add(vendor, quarter, fig, true);
  }
  /** The report's figures for a vendor: its four quarters, then the year. */
  figures(vendor: string) {
    const qs = this.q.get(vendor)!;
    const year = qs.reduce(
      (y, s) => ({
        sales: y.sales + s.sales,
        refunds: y.refunds + s.refunds,
        c: y.c + s.c,
        f: y.f + s.f,
        t: y.t + s.t,
        orders: new Set([...y.orders, ...s.orders]),
      }),
      { sales: 0n, refunds: 0n, c: 0n, f: 0n, t: 0n, orders: new Set<number>() },
    );
    const show = (s: typeof year) => ({
      consideration: num(s.sales + s.refunds),
      numberOfOrders: s.orders.size,
      sales: num(s.sales),
      refunds: num(s.refunds),
      commissions: num(s.c),
      fees: num(s.f),
      taxes: num(s.t),
      netConsideration: num(s.sales + s.refunds - s.c - s.f - s.t),
    });
    return { quarters: qs.map((s, i) => ({ quarter: i + 1, ...show(s) })), totals: show(year) };
  }
}
