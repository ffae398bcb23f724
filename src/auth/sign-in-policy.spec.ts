import { MINUTE_MS, signInWaitMs, SignInPolicy } from './sign-in-policy';

const POLICY: SignInPolicy = {
  perAddress: 5,
  shortWindowMs: 15 * MINUTE_MS,
  perAddressPerDay: 20,
  longWindowMs: 24 * 60 * MINUTE_MS,
  perAccount: 100,
  accountWindowMs: 60 * MINUTE_MS,
};
const NOW = 1_000 * 24 * 60 * MINUTE_MS;

describe('sign-in policy (failures per account + address)', () => {
  it('allows 4 failures, waits after the 5th until the oldest leaves the 15-minute window', () => {
    const four = [1, 2, 3, 4].map((m) => NOW - m * MINUTE_MS);
    expect(signInWaitMs(four, NOW, POLICY, false)).toBe(0);
    const five = [...four, NOW - 5 * MINUTE_MS];
    // the oldest (5 min ago) leaves in 10 minutes
    expect(signInWaitMs(five, NOW, POLICY, false)).toBe(10 * MINUTE_MS);
    // failures older than 15 minutes do not count for the short window
    expect(signInWaitMs([...four, NOW - 16 * MINUTE_MS], NOW, POLICY, false)).toBe(0);
  });

  it('allows at most 20 failures a day from one address, whatever the pace', () => {
    const day = Array.from({ length: 20 }, (_, i) => NOW - (i + 1) * 60 * MINUTE_MS); // one an hour
    // the oldest (20 h ago) leaves the day in 4 hours
    expect(signInWaitMs(day, NOW, POLICY, false)).toBe(4 * 60 * MINUTE_MS);
    expect(signInWaitMs(day.slice(1), NOW, POLICY, false)).toBe(0);
  });

  it('under attack, each address gets one failure per 15 minutes; none is still allowed', () => {
    expect(signInWaitMs([], NOW, POLICY, true)).toBe(0);
    expect(signInWaitMs([NOW - 6 * MINUTE_MS], NOW, POLICY, true)).toBe(9 * MINUTE_MS);
  });

  it('never waits less than a millisecond once limited (Retry-After ≥ 1 s upstream)', () => {
    const edge = [1, 2, 3, 4].map((m) => NOW - m).concat([NOW - 15 * MINUTE_MS + 1]);
    expect(signInWaitMs(edge, NOW, POLICY, false)).toBe(1);
  });
});
