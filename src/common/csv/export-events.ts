/**
 * Exports as they finish, for the metrics (the ops module subscribes; feature code does not depend
 * on it). A listener must not throw.
 */
export interface ExportRun {
  /** `payouts` (GET /v1/payouts as CSV) or `statement` (a batch statement as CSV). */
  kind: 'payouts' | 'statement';
  rows: number;
  ok: boolean;
  seconds: number;
}

const listeners = new Set<(run: ExportRun) => void>();

export function onExport(listener: (run: ExportRun) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportExport(run: ExportRun): void {
  for (const l of listeners) l(run);
}
