import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** How long the replaced secret keeps signing after a rotation (issue 19: 24 h). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** A signing secret of an endpoint: the current one has no `expiresAt`. */
export interface SigningSecret {
  secret: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** A new Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (the spec allows 24–64). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The secrets that sign at `now`: the current one and any replaced one still inside its overlap. */
export function activeSecrets(secrets: SigningSecret[], now: Date): SigningSecret[] {
  return secrets.filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime());
}

/**
 * After a rotation: the new secret becomes current, the old current one expires after the overlap,
 * and secrets already expired are dropped (so the list stays at two at most).
 */
export function rotateSecrets(secrets: SigningSecret[], fresh: string, now: Date): SigningSecret[] {
  const kept = activeSecrets(secrets, now).map((s) =>
    s.expiresAt === null ? { ...s, expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS) } : s,
  );
  return [{ secret: fresh, createdAt: now, expiresAt: null }, ...kept];
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
}

/** No active secret to sign with: the attempt must not be sent (never an empty `webhook-signature`). */
export class UnsignableDeliveryError extends Error {
  constructor() {
    super('No active signing secret: the delivery cannot be signed');
    this.name = 'UnsignableDeliveryError';
  }
}

/**
 * The Standard Webhooks headers of one attempt, signed by the reference library with every
 * active secret (newest first, space-separated `v1,<sig>` entries: receivers accept any match).
 * Throws UnsignableDeliveryError rather than return headers without a signature.
 */
export function signDelivery(
  msgId: string,
  body: string,
  secrets: SigningSecret[],
  sentAt: Date,
  now: Date,
): SignedHeaders {
  const signatures = activeSecrets(secrets, now).map((s) => new Webhook(s.secret).sign(msgId, sentAt, body));
  if (signatures.length === 0) throw new UnsignableDeliveryError();
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
  };
}
