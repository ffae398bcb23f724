/** A run's hold on its lease while it works (PayoutBatchRunner). */
export interface RunHeartbeat {
  readonly leaseId: string;
  /** Throws once a renewal found the lease taken over: the run stops at its next step. */
  assertHeld(): void;
  stop(): void;
}

/**
 * Renews the lease every `everyMs` while the run is alive (a slow chunk included), so only a dead
 * run's lease lapses. A renewal that finds the lease taken over stops the run at the next chunk
 * boundary; a renewal that fails (database unreachable) is simply tried again. `renew` extends the
 * batch's lease (false: lost), `renewLock` the vendor's lock that goes with it.
 */
export function startHeartbeat(opts: {
  leaseId: string;
  everyMs: number;
  until: () => Date;
  renew: (until: Date) => Promise<boolean>;
  renewLock: (until: Date) => Promise<unknown>;
}): RunHeartbeat {
  let lost = false;
  const timer = setInterval(() => {
    const until = opts.until();
    opts
      .renew(until)
      .then(async (held) => {
        if (!held) lost = true;
        else await opts.renewLock(until);
      })
      .catch(() => undefined);
  }, opts.everyMs);
  timer.unref();
  return {
    leaseId: opts.leaseId,
    assertHeld: () => {
      if (lost) throw new Error('The run lost its lease (another run took the batch over)');
    },
    stop: () => clearInterval(timer),
  };
}
