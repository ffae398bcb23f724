/**
 * A store-platform refund as the refunds feature consumes it (Shopify REST `refund`, from
 * `refunds/create` or an order payload's `refunds[]`), normalised by ingestion. Ids the API never
 * returns as numbers (refund, refund line item) are decimal strings, every digit kept.
 */
export interface IncomingRefundLine {
  refundLineItemId: string;
  /** The refunded line of the order (`line_item_id`). */
  lineItemId: number;
  quantity: number;
  restockType: string | null;
  /** As the platform reports them (decimal strings); the refund row's figures come from the sale line. */
  subtotal: string;
  totalTax: string;
}

/** A refund amount not tied to a line: `shipping_refund`, `refund_discrepancy`. */
export interface IncomingOrderAdjustment {
  kind: string;
  amount: string;
  reason: string | null;
}

export interface IncomingRefund {
  refundId: string;
  orderId: number;
  createdAt: Date;
  /** When the money moved; the refund row's date (else createdAt). */
  processedAt: Date | null;
  note: string | null;
  lines: IncomingRefundLine[];
  orderAdjustments: IncomingOrderAdjustment[];
  /** Σ of successful refund transactions (what the customer got back). */
  transactionsTotal: string;
}
