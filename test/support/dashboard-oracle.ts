import { divHalfUp, fmt } from './cents';

/** The oracle's rows: BigInt cents, written from the inputs, independent of the app's money code. */
export interface OracleRow {
  vendor: string;
  orderId: number;
  type: 'sale' | 'refund';
  date: Date;
  cancelled: boolean;
  fulfilled: boolean;
  sad: bigint;
  commission: bigint;
  payout: bigint;
}

/** The oracle's figures over [from, to) for one vendor (or every vendor). */
export function expectedFigures(rows: OracleRow[], from: Date, to: Date, vendor?: string) {
  const cancelledOrders = new Set(rows.filter((r) => r.type === 'sale' && r.cancelled).map((r) => r.orderId));
  const mine = rows.filter((r) => (!vendor || r.vendor === vendor) && r.date >= from && r.date < to);
  const counted = mine.filter((r) => !cancelledOrders.has(r.orderId));
  const sales = counted.filter((r) => r.type === 'sale');
  const refunds = counted.filter((r) => r.type === 'refund');
  const sum = (rs: OracleRow[], f: (r: OracleRow) => bigint) => rs.reduce((a, r) => a + f(r), 0n);
  const orders = new Set(sales.map((r) => r.orderId)).size;
  const gross = sum(sales, (r) => r.sad);
  return {
    netSales: fmt(gross + sum(refunds, (r) => r.sad)),
    totalOrders: orders,
    refunds: fmt(-sum(refunds, (r) => r.sad)),
    earnings: fmt(sum(counted, (r) => r.payout)),
    commission: fmt(sum(counted, (r) => r.commission)),
    cancelledSales: fmt(
      sum(
        mine.filter((r) => r.type === 'sale' && r.cancelled),
        (r) => r.sad,
      ),
    ),
    avgOrderValue: orders ? fmt(divHalfUp(gross, BigInt(orders))) : '0.00',
    lines: sales.length,
    fulfilled: sales.filter((r) => r.fulfilled).length,
  };
}
