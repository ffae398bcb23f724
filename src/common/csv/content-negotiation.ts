export const CSV_MEDIA_TYPE = 'text/csv';

/**
 * Whether the client asked for CSV: `text/csv` in `Accept` with a higher quality than
 * `application/json` (ties go to the one listed first). Anything else — no Accept, `*\/*`,
 * JSON — is answered as JSON, as before CSV existed.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let best: { type: string; q: number } | null = null;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type !== CSV_MEDIA_TYPE && type !== 'application/json') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { type, q };
  }
  return best?.type === CSV_MEDIA_TYPE;
}
