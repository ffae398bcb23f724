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
  /** Merchant tokens: the merchant key the token was minted from. */
  keyId?: string;
  /** Shop tokens: the version of the shop API key the token was minted from (`kv`). */
  keyVersion?: number;
}
