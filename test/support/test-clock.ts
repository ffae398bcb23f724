import { Clock } from '../../src/common/clock/clock';

/** Real time plus an offset the test can move forward (token expiry, rotation grace) without sleeping. */
export class TestClock extends Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

export const HOUR = 3600 * 1000;
export const DAY = 24 * HOUR;
