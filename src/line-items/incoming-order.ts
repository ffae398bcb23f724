import type { IncomingRefund } from './incoming-refund';

/**
 * An order and a fulfillment as the line items feature consumes them, already normalised from the
 * store platform's webhook JSON by the ingestion feature (money amounts stay decimal strings).
 */
export interface IncomingLine {
  lineItemId: number;
  name: string;
  variantTitle: string | null;
  sku: string | null;
  vendor: string | null;
  /** 64-bit platform ids, as decimal strings. */
  productId: string | null;
  variantId: string | null;
  price: string;
  quantity: number;
  discounts: string[];
  taxes: string[];
  /** The platform reports the line as fulfilled. */
  fulfilled: boolean;
}

export interface IncomingFulfillment {
  fulfillmentId: string;
  orderId: number;
  /** success, pending, open, cancelled, error, failure */
  status: string;
  trackingCompany: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  /** in_transit, out_for_delivery, delivered, failure, … (null until the carrier reports) */
  shipmentStatus: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** The order's line item ids this fulfillment covers. */
  lineItemIds: number[];
}

export interface IncomingOrder {
  orderId: number;
  orderNumber: number;
  orderName: string;
  createdAt: Date;
  /** Version of this payload: an older version never overwrites a newer one. */
  updatedAt: Date;
  financialStatus: string;
  cancelled: boolean;
  notes: string | null;
  customer: Record<string, unknown> | null;
  shippingAddress: Record<string, unknown> | null;
  billingAddress: Record<string, unknown> | null;
  /** Σ shipping_lines[].price */
  shippingTotal: string;
  lines: IncomingLine[];
  fulfillments: IncomingFulfillment[];
  /** The order's refunds (`refunds[]`); each becomes refund rows once (src/refunds). */
  refunds: IncomingRefund[];
}
