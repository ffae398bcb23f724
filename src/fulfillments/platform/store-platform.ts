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
  /** Whether the platform emails the customer the shipping confirmation (default false). */
  notifyCustomer?: boolean;
  /** Epoch ms by which the whole request must be done: no call starts after it, none outlives it. */
  deadline?: number;
}

/** One platform fulfillment (as its id was recorded on the lines) to change. */
export interface PlatformFulfillmentRef {
  shop: PlatformShop;
  orderId: number;
  /** The id the adapter answered at creation (`platformFulfillmentId` on the line items). */
  fulfillmentId: string;
}

/** Whether the platform did the change; a refusal carries a message a merchant can act on. */
export type PlatformChangeOutcome = { ok: true } | { ok: false; message: string };

export type PlatformLineOutcome =
  | { lineItemId: number; ok: true; fulfillmentId: string; status: string }
  | { lineItemId: number; ok: false; message: string };

/**
 * Port to the store platform (DESIGN §7): creates fulfillments there, changes their tracking and
 * cancels them. An adapter answers one
 * outcome per requested line; a refusal is an outcome with `ok: false` and a message a merchant can
 * act on. Throwing means the platform could not be asked at all (the whole order then fails).
 */
export abstract class StorePlatform {
  abstract readonly name: string;
  abstract createFulfillment(request: PlatformFulfillmentRequest): Promise<PlatformLineOutcome[]>;
  /** Replaces the tracking of a whole platform fulfillment (every line it covers). */
  abstract updateTracking(
    ref: PlatformFulfillmentRef,
    tracking: FulfillmentTracking,
    notifyCustomer: boolean,
  ): Promise<PlatformChangeOutcome>;
  /** Cancels a whole platform fulfillment: every line it covers can be fulfilled again. */
  abstract cancelFulfillment(ref: PlatformFulfillmentRef): Promise<PlatformChangeOutcome>;
}

export const STORE_PLATFORM_NAMES = ['local', 'shopify'] as const;
export type StorePlatformName = (typeof STORE_PLATFORM_NAMES)[number];
