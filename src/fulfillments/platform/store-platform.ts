/** The shop as an adapter needs it; `accessToken` already decrypted (null when none is set). */
export interface PlatformShop {
  shopId: string;
  domain: string;
  accessToken: string | null;
}

export interface FulfillmentTracking {
  company: string;
  number: string;
  url: string;
}

/** One order's lines to fulfil (store-platform ids), all with the same tracking. */
export interface PlatformFulfillmentRequest {
  shop: PlatformShop;
  orderId: number;
  lines: Array<{ lineItemId: number; quantity: number }>;
  tracking: FulfillmentTracking;
  /** Epoch ms by which the whole request must be done: no call starts after it, none outlives it. */
  deadline?: number;
}

export type PlatformLineOutcome =
  | { lineItemId: number; ok: true; fulfillmentId: string; status: string }
  | { lineItemId: number; ok: false; message: string };

/**
 * Port to the store platform (DESIGN §7): creates fulfillments there. An adapter answers one
 * outcome per requested line; a refusal is an outcome with `ok: false` and a message a merchant can
 * act on. Throwing means the platform could not be asked at all (the whole order then fails).
 */
export abstract class StorePlatform {
  abstract readonly name: string;
  abstract createFulfillment(request: PlatformFulfillmentRequest): Promise<PlatformLineOutcome[]>;
}

export const STORE_PLATFORM_NAMES = ['local', 'shopify'] as const;
export type StorePlatformName = (typeof STORE_PLATFORM_NAMES)[number];
