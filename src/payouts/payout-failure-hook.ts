/** Points of a batch run where a test can make the run fail, to prove a rerun completes it. */
export type PayoutRunPoint = 'line-items-chunk' | 'adjustments' | 'before-complete';

/**
 * Called by the payout engine at each point of a run. The production binding does nothing; e2e
 * tests override this provider to throw part-way through a batch (a stand-in for a crash).
 */
export abstract class PayoutFailureHook {
  abstract reached(point: PayoutRunPoint, ctx: { batchId: string; chunk?: number }): void | Promise<void>;
}

export class NoPayoutFailures extends PayoutFailureHook {
  reached(): void {}
}

/** Engine tuning, a provider so tests can force several chunks on a small batch. */
export abstract class PayoutEngineOptions {
  /** Line items per marking chunk (one bulkWrite each). */
  abstract readonly chunkSize: number;
  /** How long a run's lease lasts without renewal (renewed after every chunk). */
  abstract readonly leaseMs: number;
}

/** 100 lines per chunk keeps lease renewals frequent even where each write is slow (FerretDB). */
export const DEFAULT_PAYOUT_ENGINE_OPTIONS: PayoutEngineOptions = { chunkSize: 100, leaseMs: 5 * 60_000 };
