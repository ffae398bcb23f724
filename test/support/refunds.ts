/* eslint-disable @typescript-eslint/no-explicit-any */
import { platformId } from './webhooks';

/** One refunded line of a Shopify refund. */
export interface ShopifyRefundLineInput {
  id?: number;
  lineItemId: number;
  quantity: number;
  subtotal?: string;
}

export interface ShopifyRefundInput {
  id?: number;
  orderId: number;
  createdAt?: Date;
  processedAt?: Date | null;
  lines?: ShopifyRefundLineInput[];
  /** `order_adjustments[]`: a shipping refund, a refund discrepancy. */
  adjustments?: Array<{ kind: 'shipping_refund' | 'refund_discrepancy'; amount: string }>;
  amount?: string;
}

/**
 * A Shopify REST refund (the `refunds/create` payload, and an entry of an order's `refunds[]`), in
 * the shape of the platform's refund resource: ids as numbers, money as strings.
 */
export function shopifyRefund(input: ShopifyRefundInput): Record<string, any> {
  const created = input.createdAt ?? new Date();
  return {
    id: input.id ?? platformId(),
    order_id: input.orderId,
    created_at: created.toISOString(),
    processed_at: (input.processedAt === undefined ? created : input.processedAt)?.toISOString() ?? null,
    note: 'customer return',
    restock: true,
    user_id: null,
    admin_graphql_api_id: 'gid://shopify/Refund/1',
    transactions: [
      {
        id: platformId(),
        kind: 'refund',
        status: 'success',
        amount: input.amount ?? '0.00',
        currency: 'USD',
      },
    ],
    order_adjustments: (input.adjustments ?? []).map((a) => ({
      id: platformId(),
      kind: a.kind,
      amount: a.amount,
      tax_amount: '0.00',
      reason: a.kind === 'shipping_refund' ? 'Shipping refund' : 'Refund discrepancy',
    })),
    refund_line_items: (input.lines ?? []).map((l) => ({
      id: l.id ?? platformId(),
      line_item_id: l.lineItemId,
      quantity: l.quantity,
      restock_type: 'return',
      location_id: null,
      subtotal: l.subtotal ?? '0.00',
      total_tax: '0.00',
      line_item: { id: l.lineItemId },
    })),
  };
}
