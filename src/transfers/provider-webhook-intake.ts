import { toObjectId } from '../common/tenancy';

/** PayPal's payout item events (PAYMENT.PAYOUTS-ITEM.SUCCEEDED, .FAILED, .RETURNED, .UNCLAIMED, …). */
export const PAYPAL_ITEM_EVENT = /^PAYMENT\.PAYOUTS-ITEM\.[A-Z_]+$/;

/** The parts of a PayPal webhook event read before it is verified. */
export interface PaypalEventHead {
  id: string;
  event_type: string;
}

/** The event's id and type, or null when the body is not a PayPal event (refused like a bad signature). */
export function paypalEventHead(rawBody: Buffer): (PaypalEventHead & Record<string, unknown>) | null {
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const e = event as Partial<PaypalEventHead> | null;
  if (!e || typeof e !== 'object' || Array.isArray(e)) return null;
  if (typeof e.id !== 'string' || !e.id || typeof e.event_type !== 'string') return null;
  return e as PaypalEventHead & Record<string, unknown>;
}

/**
 * Why `paypal-transmission-time` is refused, or null when it lies within `toleranceMs` of `now`
 * (either way: a clock a little ahead of ours too). PayPal signs the time and gives every redelivery
 * a new one, so only a replayed capture falls outside.
 */
export function transmissionTimeProblem(value: string, now: Date, toleranceMs: number): string | null {
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return 'The paypal-transmission-time header is not a date';
  if (Math.abs(now.getTime() - at) > toleranceMs) {
    return `The webhook's transmission time is more than ${Math.round(toleranceMs / 1000)} s from now`;
  }
  return null;
}

/** The event type of an (unverified) Stripe event, or null when the body is not one. */
export function stripeEventType(rawBody: Buffer): string | null {
  try {
    const e = JSON.parse(rawBody.toString('utf8')) as { type?: unknown } | null;
    return typeof e?.type === 'string' ? e.type : null;
  } catch {
    return null;
  }
}

interface StripeTransferMetadata {
  data?: { object?: { metadata?: { shopId?: unknown } } };
}

/** The shop id our transfer metadata carries (only a hint: the shop's own secret must verify). */
export function stripeShopHint(rawBody: Buffer): string | null {
  try {
    const e = JSON.parse(rawBody.toString('utf8')) as StripeTransferMetadata | null;
    const id = e?.data?.object?.metadata?.shopId;
    return typeof id === 'string' && toObjectId(id) ? id : null;
  } catch {
    return null;
  }
}
