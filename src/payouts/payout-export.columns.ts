import type { CsvColumn } from '../common/csv';
import { LINE_FIGURE_FIELDS } from '../line-items/dto/line-figures.dto';
import type { MoneyRowSource } from '../line-items/line-item-views';

/**
 * The columns of GET /v1/payouts as CSV: one line per payout row (sale or refund), its source ids,
 * every figure and its payout state. Ids are text (64-bit platform ids keep every digit).
 */
export const PAYOUT_EXPORT_COLUMNS: ReadonlyArray<CsvColumn<MoneyRowSource>> = [
  { header: 'rowId', kind: 'text', value: (r) => String(r._id), description: 'payout row id' },
  { header: 'type', kind: 'text', value: (r) => r.type ?? 'sale', description: 'sale or refund' },
  {
    header: 'date',
    kind: 'date',
    value: (r) => r.orderCreatedAt,
    description: 'order date (refund rows: the refund date)',
  },
  {
    header: 'vendorId',
    kind: 'text',
    value: (r) => (r.vendorId ? String(r.vendorId) : ''),
    description: 'vendor id',
  },
  { header: 'vendorName', kind: 'text', value: (r) => r.vendorName, description: 'vendor name' },
  { header: 'orderId', kind: 'text', value: (r) => r.orderId, description: 'store-platform order id' },
  { header: 'orderName', kind: 'text', value: (r) => r.orderName, description: 'order name, e.g. #1042' },
  {
    header: 'lineItemId',
    kind: 'text',
    value: (r) => r.lineItemId,
    description: 'store-platform line item id',
  },
  { header: 'refundId', kind: 'text', value: (r) => r.refundId, description: 'refund id (refund rows)' },
  {
    header: 'refundLineItemId',
    kind: 'text',
    value: (r) => r.refundLineItemId,
    description: 'refund line item id (refund rows)',
  },
  { header: 'lineItemName', kind: 'text', value: (r) => r.name, description: 'product title' },
  { header: 'sku', kind: 'text', value: (r) => r.sku, description: 'SKU' },
  {
    header: 'quantity',
    kind: 'integer',
    value: (r) => (r.type === 'refund' ? r.refundedQuantity : r.quantity),
    description: 'units (refund rows: units refunded)',
  },
  ...LINE_FIGURE_FIELDS.map((f): CsvColumn<MoneyRowSource> => ({
    header: f,
    kind: 'amount',
    value: (r) => r[f],
    description: `figure ${f}`,
  })),
  { header: 'paid', kind: 'amount', value: (r) => r.paid, description: 'paid by batches' },
  { header: 'balance', kind: 'amount', value: (r) => r.balance, description: 'payout − paid' },
  {
    header: 'payoutStatus',
    kind: 'text',
    value: (r) => r.payoutStatus,
    description: 'unpaid, partial or paid',
  },
  {
    header: 'fulfillmentStatus',
    kind: 'text',
    value: (r) => r.fulfillmentStatus,
    description: 'fulfilled or unfulfilled',
  },
  { header: 'batchId', kind: 'text', value: (r) => r.batchId, description: 'the batch that paid the row' },
];
