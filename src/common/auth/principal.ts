import type { VendorScope } from './scopes';

export type CredentialKind = 'shop' | 'merchant' | 'vendor';

/** Who is calling, taken only from a verified token. */
export interface Principal {
  kind: CredentialKind;
  shopId: string;
  shopDomain: string;
  /** Vendor tokens: the vendor whose data the caller may see. */
  vendorId?: string;
  /** Vendor tokens: the portal user. */
  userId?: string;
  /**
   * Merchant tokens: the merchant key the token was minted from. Vendor tokens minted from a vendor
   * API key: that key (such a token has no `userId`).
   */
  keyId?: string;
  /** Shop tokens: the version of the shop API key the token was minted from (`kv`). */
  keyVersion?: number;
  /**
   * Vendor tokens: the user's credential version when the token was minted (`cv`); a password or
   * email change, un-approval or vendor deactivation raises the user's, refusing older tokens.
   */
  credentialVersion?: number;
  /**
   * Vendor tokens: the scopes the caller holds (a vendor API key's scopes, a portal user's
   * permissions), as checked on this request. Undefined = every scope (a user from before permissions).
   */
  permissions?: VendorScope[];
}

/**
 * Whom a credential acts as, for rate limits and the audit trail: a shop token is its shop, a
 * merchant token its key, a vendor token its portal user, or its vendor API key when minted from
 * one (never a token itself).
 */
export function actorOf(p: Principal): { kind: CredentialKind; id: string } {
  if (p.kind === 'merchant') return { kind: 'merchant', id: p.keyId! };
  if (p.kind === 'vendor') return { kind: 'vendor', id: p.userId ?? p.keyId! };
  return { kind: 'shop', id: p.shopId };
}
