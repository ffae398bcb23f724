/**
 * The money oracle of the e2e tests: BigInt cents, half-up, written independently of
 * src/common/money (a test that computed its expectation with the app's own function could not fail).
 */
export const cents = (s: string): bigint => {
  const [i, f = ''] = s.split('.');
  const neg = i.startsWith('-');
  const v = BigInt(i.replace('-', '')) * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -v : v;
};
/** half-up of a / b for a ≥ 0, b > 0 */
export const divHalfUp = (a: bigint, b: bigint): bigint => (a * 2n + b) / (2n * b);
export const fmt = (c: bigint): string => {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};
export const num = (c: bigint): number => Number(fmt(c));
/** A line at a percentage commission: sales, commission and payout in cents. */
export function line(price: string, quantity: number, ratePct: bigint) {
  const sales = cents(price) * BigInt(quantity);
  const commission = divHalfUp(sales * ratePct, 100n);
  return { sales, commission, payout: sales - commission };
}
