import { sumAmounts } from '../common/money';
import type { IncomingRefund } from '../line-items/incoming-refund';
import {
  arr,
  date,
  dateOrNull,
  decimal,
  id,
  idString,
  int,
  obj,
  objOrNull,
  PayloadError,
  str,
  strOrNull,
} from './payload-fields';

/**
 * A Shopify REST refund (`refunds/create`, or one entry of an order payload's `refunds[]`):
 * `id`, `order_id`, `created_at`, `processed_at`, `transactions[]`, `order_adjustments[]` and
 * `refund_line_items[]` (`id`, `line_item_id`, `quantity`, `restock_type`, `subtotal`, `total_tax`).
 * Refund and refund line item ids keep every digit (strings). `orderIdFallback`: the order that
 * carries it (an entry of `refunds[]` may omit `order_id`). `undatedAt`: the date of a refund whose
 * `created_at` and `processed_at` are both null (Shopify's test notification sends such a refund);
 * without it such a refund is refused.
 */
export function parseRefund(
  payload: unknown,
  orderIdFallback?: number,
  where = 'refund',
  undatedAt?: Date,
): IncomingRefund {
  const r = obj(payload, where);
  const orderId =
    (r.order_id === undefined || r.order_id === null) && orderIdFallback
      ? orderIdFallback
      : id(r.order_id, `${where}.order_id`);
  if (orderIdFallback && orderId !== orderIdFallback) {
    throw new PayloadError(`${where}.order_id ${orderId} is not the order that carries it`);
  }
  const processedAt = dateOrNull(r.processed_at);
  const createdAt = date(r.created_at, `${where}.created_at`, processedAt ?? undatedAt);
  return {
    refundId: idString(r.id, `${where}.id`),
    orderId,
    createdAt,
    processedAt,
    note: strOrNull(r.note),
    lines: arr(r.refund_line_items).map((raw, i) => {
      const at = `${where}.refund_line_items[${i}]`;
      const l = obj(raw, at);
      const lineItemId = l.line_item_id ?? objOrNull(l.line_item)?.id;
      const quantity = int(l.quantity, `${at}.quantity`);
      if (quantity < 1) throw new PayloadError(`${at}.quantity must be at least 1`);
      return {
        refundLineItemId: idString(l.id, `${at}.id`),
        lineItemId: id(lineItemId, `${at}.line_item_id`),
        quantity,
        restockType: strOrNull(l.restock_type),
        subtotal: decimal(l.subtotal, `${at}.subtotal`, '0'),
        totalTax: decimal(l.total_tax, `${at}.total_tax`, '0'),
      };
    }),
    orderAdjustments: arr(r.order_adjustments).map((raw, i) => {
      const a = obj(raw, `${where}.order_adjustments[${i}]`);
      return {
        kind: str(a.kind, 'refund_discrepancy') || 'refund_discrepancy',
        amount: decimal(a.amount, `${where}.order_adjustments[${i}].amount`, '0'),
        reason: strOrNull(a.reason),
      };
    }),
    transactionsTotal: String(
      sumAmounts(
        arr(r.transactions)
          .map((t) => objOrNull(t))
          .filter((t) => t && t.kind === 'refund' && (t.status === 'success' || t.status === undefined))
          .map((t, i) => decimal(t!.amount, `${where}.transactions[${i}].amount`, '0')),
      ),
    ),
  };
}
