/** Injectable time source, so expiry rules (tokens, key rotation grace) are testable without sleeping. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
