/**
 * A UTC calendar quarter as a key, `2026Q4`: what the seller tax report's summaries are kept per
 * (DESIGN §14, DAC7 reports per seller and quarter). A row dated Mar 31 23:59:59.999Z is in Q1, one
 * dated Apr 1 00:00:00.000Z in Q2.
 */
export function quarterKey(date: Date): string {
  return `${date.getUTCFullYear()}Q${Math.floor(date.getUTCMonth() / 3) + 1}`;
}

/** The year and quarter (1–4) of a key made by `quarterKey`; null for anything else. */
export function parseQuarterKey(key: string): { year: number; quarter: 1 | 2 | 3 | 4 } | null {
  const m = /^(\d{4})Q([1-4])$/.exec(key);
  return m ? { year: Number(m[1]), quarter: Number(m[2]) as 1 | 2 | 3 | 4 } : null;
}
