/** Why an outbound call was refused or failed (shared by the guard and its resolver). */
export type OutboundRefusalReason =
  | 'url' // not a URL, a refused scheme, or credentials in it
  | 'host' // the host check refused the host
  | 'address' // the host is, or resolves to, a non-public address
  | 'timeout'
  | 'too_large'
  | 'network'; // DNS failure, connection refused or reset

/** The call was refused by the guard or failed on the wire; `message` is safe to show a caller. */
export class OutboundHttpError extends Error {
  constructor(
    readonly reason: OutboundRefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundHttpError';
  }
}
