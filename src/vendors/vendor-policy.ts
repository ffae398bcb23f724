import type { Vendor } from './vendor.schema';

/**
 * The vendor rules other features apply: which vendor a store line belongs to, whether a vendor is
 * active, whether the payout engine pays it. One place, so a new rule (say, "a vendor on vacation
 * gets no payout") is one edit here plus the field it reads.
 */

/**
 * A store line's `vendor` field as vendor names are stored (trimmed, lowercased; null when empty):
 * a line belongs to the vendor whose name equals it (DESIGN §7).
 */
export function normaliseVendorName(name: string | null | undefined): string | null {
  const n = String(name ?? '')
    .trim()
    .toLowerCase();
  return n === '' ? null : n;
}

/**
 * Inactive (deactivated) vendors leave GET /v1/commissions/vendor and their users cannot sign in.
 * Records written before the flag existed (or by an upsert that dropped it) count as active.
 */
export function isActiveVendor(vendor: Pick<Vendor, 'active'>): boolean {
  return vendor.active !== false;
}

/** What the payout policy reads of a vendor (add the fields a new rule needs). */
export type PayoutVendor = Pick<Vendor, '_id' | 'vendorName' | 'active'>;

/**
 * Whether the payout engine pays this vendor: a vendor of the shop is paid for its eligible line
 * items and adjustments whether it is active or not. Deactivation (V2 DELETE) stops selling and
 * signing in, not payment: money a vendor earned is owed until it is paid out. An unknown vendor
 * (no record in the shop) is not paid. A rule that withholds payouts (vacation, a payout hold)
 * returns false here; the engine then makes no batch for the vendor.
 */
export function isPayable(vendor: PayoutVendor | null | undefined): vendor is PayoutVendor {
  return !!vendor;
}
