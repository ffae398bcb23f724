/** Bull queue names (one place, so producers and processors cannot drift apart). */
export const Queues = {
  Ingestion: 'ingestion',
  Recalculation: 'recalculation',
  Payouts: 'payouts',
  Mail: 'mail',
} as const;

/** Whether this process runs queue processors (the API does unless QUEUE_PROCESSORS=false; dist/worker.js always does). */
export function processorsEnabled(): boolean {
  if (process.env.MP_WORKER === '1') return true;
  return !['0', 'false', 'no'].includes(String(process.env.QUEUE_PROCESSORS ?? 'true').toLowerCase());
}
