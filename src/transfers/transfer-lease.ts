import type { Transfer } from './transfer.schema';

/**
 * A transfer's leases and holds: who may write it while a rail call, an operator's follow-up or a
 * retry holds it (TransfersRepository's conditional writes, TransferRunner, the retry).
 */

/** PayPal keeps an unclaimed payout for 30 days, then returns it: fail it then. */
export const UNCLAIMED_FAIL_AFTER_MS = 30 * 24 * 3600 * 1000;

/** "No lease": a date every `now` is past (a null would need an `$or` in the claim's filter). */
export const NO_LEASE = new Date(0);

/**
 * A holder's own condition on its write: its lease (exactly the one it took, and not lapsed at
 * `now`) and the credit counter it read. A writer that lost its hold matches nothing.
 */
export interface TransferGuard {
  /** `now`: also not lapsed (without it, only the same lease). */
  lease?: { until: Date; now?: Date };
  creditSeq?: number | null;
}

export function guardFilter(g: TransferGuard): Record<string, unknown> {
  return {
    ...(g.lease
      ? { leaseUntil: g.lease.now ? { $eq: g.lease.until, $gt: g.lease.now } : g.lease.until }
      : {}),
    ...(g.creditSeq !== undefined ? { creditSeq: g.creditSeq ? g.creditSeq : { $in: [0, null] } } : {}),
  };
}

/**
 * Whether an earlier attempt of this pending transfer may have reached the provider: every claim
 * counts an attempt, and only a counted refusal is known to have made nothing (a crash, an outage
 * or a lookup leaves the outcome unknown).
 */
export function mayHaveReachedProvider(t: Pick<Transfer, 'attempts' | 'refusals'>): boolean {
  return (t.attempts ?? 0) - 1 > (t.refusals ?? 0);
}

/**
 * A release conditional on the caller's own lease (as it claimed it): a worker whose lease lapsed
 * and was taken over cannot clear the lease of the one that holds the transfer now.
 */
export function held(t: Pick<Transfer, 'leaseUntil'>): TransferGuard {
  return { lease: { until: t.leaseUntil ?? NO_LEASE } };
}
