/**
 * The sign-in policy's numbers and its one decision, pure (the limiter keeps the state in Redis).
 * See docs/operations/security.md, "Sign-in policy".
 */
export interface SignInPolicy {
  /** Failures allowed per account + client address within `shortWindowMs` (DESIGN §3: 5 in 15 minutes). */
  perAddress: number;
  shortWindowMs: number;
  /** Failures allowed per account + client address within `longWindowMs` (a day). */
  perAddressPerDay: number;
  longWindowMs: number;
  /**
   * Failures across every address within `accountWindowMs` after which the account counts as under
   * attack: each address then gets one failure per short window for it (never a lockout for all).
   */
  perAccount: number;
  accountWindowMs: number;
}

export const MINUTE_MS = 60_000;

/**
 * How long this address must wait before its next attempt on this account, in ms (0: now), from
 * the times of its failures for the account (any order) — a sliding log, so a wait ends exactly
 * when enough failures have left their window.
 */
export function signInWaitMs(
  failures: number[],
  now: number,
  policy: SignInPolicy,
  underAttack: boolean,
): number {
  const sorted = [...failures].sort((a, b) => a - b);
  const short = underAttack ? 1 : policy.perAddress;
  return Math.max(
    waitFor(sorted, now, policy.shortWindowMs, short),
    waitFor(sorted, now, policy.longWindowMs, policy.perAddressPerDay),
  );
}

/** With `limit` failures allowed per `windowMs`: until the oldest that keeps the count at the limit leaves. */
function waitFor(sorted: number[], now: number, windowMs: number, limit: number): number {
  const inWindow = sorted.filter((t) => t > now - windowMs);
  if (inWindow.length < limit) return 0;
  const releasing = inWindow[inWindow.length - limit];
  return Math.max(1, releasing + windowMs - now);
}
