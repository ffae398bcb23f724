/** Engine tuning, a provider so that tests can force several chunks on a small batch. */
export abstract class PayoutEngineOptions {
  /** Line items per marking chunk (one bulk write each, the lease renewed after each). */
  abstract readonly chunkSize: number;
  /** How long a run's lease lasts without renewal. */
  abstract readonly leaseMs: number;
}

/**
 * 100 lines per chunk keeps lease renewals frequent even where each write is slow (it was chosen on
 * FerretDB, no longer supported); the lease itself comes from PAYOUT_LEASE_SECONDS (30 s by default,
 * renewed by a heartbeat).
 * MongoDB: takes a chunk of 100 updates as one quick bulk write; only the lease renewals are more frequent.
 */
export const DEFAULT_PAYOUT_ENGINE_OPTIONS: PayoutEngineOptions = { chunkSize: 100, leaseMs: 30_000 };
