declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type ShopId = Brand<string, 'ShopId'>;
export type VendorId = Brand<string, 'VendorId'>;

/**
 * Whose data a call may touch. Built only from a verified credential (or a job payload that
 * carried one); every repository method takes it first.
 */
export interface ShopScope {
  readonly shopId: ShopId;
  /** Present for vendor callers: their reads and writes are limited to this vendor. */
  readonly vendorId?: VendorId;
}

export function shopScope(shopId: string, vendorId?: string): ShopScope {
  return vendorId
    ? { shopId: shopId as ShopId, vendorId: vendorId as VendorId }
    : { shopId: shopId as ShopId };
}
