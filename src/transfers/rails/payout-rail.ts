import type { PayoutMethodType } from '../transfer-states';

/** What a rail needs of a transfer (never the whole document). */
export interface RailTransfer {
  /** The transfer id: the provider's idempotency key (Stripe) or sender_batch_id (PayPal). */
  id: string;
  shopId: string;
  vendorId: string;
  batchId: string;
  amount: number;
  currency: string;
  destination: string | null;
  recipientType: string | null;
  providerId: string | null;
}

/** The shop's provider credentials, decrypted for the one call (never stored or logged). */
export interface RailCredentials {
  mode: 'sandbox' | 'live';
  stripeSecretKey: string | null;
  paypalClientId: string | null;
  paypalClientSecret: string | null;
}

export type SendOutcome =
  /** The money moved (Stripe: a transfer to a connected account is settled when created). */
  | { kind: 'paid'; providerId: string; reference: string }
  /** Accepted; the outcome follows (PayPal item status). */
  | { kind: 'sent'; providerId: string; providerStatus: string | null }
  /** Manual: an operator pays and records the bank reference. */
  | { kind: 'awaiting_reference' };

export type FollowOutcome =
  /**
   * The money moved. `providerId` when the lookup found it without one recorded; `reversed`: what
   * the provider has taken back of it since (decimal), when a lookup sees it (Stripe).
   */
  | { kind: 'paid'; providerStatus: string; reference: string | null; providerId?: string; reversed?: number }
  | { kind: 'failed'; providerStatus: string; reason: string }
  | { kind: 'pending'; providerStatus: string | null }
  /** The provider has no such transfer (never made): a pending one may be sent, with its same key. */
  | { kind: 'absent'; providerStatus: null };

/**
 * A provider's error text without anything key-shaped in it (it is stored as `lastError`, returned
 * and logged): Stripe echoes a masked key in some messages; nothing of a key may leave.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(/\b(sk|rk|pk)_(test|live)_[A-Za-z0-9*]+/g, '$1_$2_…')
    .replace(/\bwhsec_[A-Za-z0-9+/=]+/g, 'whsec_…');
}

/**
 * The provider could not be reached or answered 5xx/429: nothing is known to have happened, the
 * transfer stays `pending` and is tried again with the same idempotency key.
 */
export class RailOutage extends Error {
  constructor(
    message: string,
    readonly provider: string,
  ) {
    super(scrubSecrets(message));
    this.name = 'RailOutage';
  }
}

/** The provider answered and refused the transfer (or the credentials are missing/refused). */
export class RailRefusal extends Error {
  constructor(
    message: string,
    readonly provider: string,
  ) {
    super(scrubSecrets(message));
    this.name = 'RailRefusal';
  }
}

/**
 * The port every payout rail implements (DESIGN §10), one adapter file per provider. `send` must be
 * safe to repeat for the same transfer: a second call after a crash returns the first outcome.
 */
export abstract class PayoutRail {
  abstract readonly method: PayoutMethodType;
  abstract send(transfer: RailTransfer, credentials: RailCredentials): Promise<SendOutcome>;
  /**
   * The provider's word on a transfer (`sent`, or `pending` with an unknown outcome): rails that
   * cannot ask (manual) answer pending without asking.
   */
  follow(transfer: RailTransfer, credentials: RailCredentials): Promise<FollowOutcome> {
    void credentials;
    return Promise.resolve({ kind: 'pending', providerStatus: transfer.providerId ? 'unknown' : null });
  }
}

/** One provider call, for the latency and error metrics. */
export interface ProviderCall {
  provider: 'stripe' | 'paypal';
  operation: string;
  seconds: number;
  /** `ok`, `refused` (4xx) or `outage` (network, timeout, 5xx, 429). */
  outcome: 'ok' | 'refused' | 'outage';
}
