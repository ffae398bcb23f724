import type { CsvColumn } from '../common/csv';
import { LINE_FIGURE_FIELDS } from '../line-items/dto/line-figures.dto';
import type { StatementRowDto } from './dto/statement.dto';

/**
 * A statement line of the CSV: a settled row, or one of the balance lines around them
 * (`opening_balance` first — what the previous batch carried forward, for information: the rows that
 * made it are settled here and listed below; `paid` — what the batch paid, as a negative amount — and
 * `closing_balance` last), so the amounts of the rows and the `paid` line add up to the closing balance.
 */
export type StatementCsvLine = Omit<StatementRowDto, 'kind'> & {
  kind: StatementRowDto['kind'] | 'opening_balance' | 'paid' | 'closing_balance';
  batchId: string;
  vendorId: string;
  vendorName: string;
};

export const STATEMENT_CSV_COLUMNS: ReadonlyArray<CsvColumn<StatementCsvLine>> = [
  { header: 'batchId', kind: 'text', value: (r) => r.batchId, description: 'payout batch id' },
  { header: 'vendorId', kind: 'text', value: (r) => r.vendorId, description: 'vendor id' },
  { header: 'vendorName', kind: 'text', value: (r) => r.vendorName, description: 'vendor name' },
  {
    header: 'kind',
    kind: 'text',
    value: (r) => r.kind,
    description: 'opening_balance, sale, refund, adjustment, paid or closing_balance',
  },
  { header: 'date', kind: 'date', value: (r) => r.date, description: 'row date (ISO 8601, UTC)' },
  { header: 'rowId', kind: 'text', value: (r) => r.rowId, description: 'payout row or adjustment id' },
  { header: 'orderId', kind: 'text', value: (r) => r.orderId, description: 'store-platform order id' },
  { header: 'orderName', kind: 'text', value: (r) => r.orderName, description: 'order name' },
  {
    header: 'lineItemId',
    kind: 'text',
    value: (r) => r.lineItemId,
    description: 'store-platform line item id',
  },
  { header: 'refundId', kind: 'text', value: (r) => r.refundId, description: 'refund id' },
  {
    header: 'refundLineItemId',
    kind: 'text',
    value: (r) => r.refundLineItemId,
    description: 'refund line item id',
  },
  { header: 'adjustmentId', kind: 'text', value: (r) => r.adjustmentId, description: 'adjustment reference' },
  {
    header: 'description',
    kind: 'text',
    value: (r) => r.description,
    description: 'product title or comment',
  },
  { header: 'sku', kind: 'text', value: (r) => r.sku, description: 'SKU' },
  { header: 'quantity', kind: 'integer', value: (r) => r.quantity, description: 'units (refunds: refunded)' },
  ...LINE_FIGURE_FIELDS.map((f): CsvColumn<StatementCsvLine> => ({
    header: f,
    kind: 'amount',
    value: (r) => r.figures?.[f],
    description: `figure ${f}`,
  })),
  {
    header: 'amount',
    kind: 'amount',
    value: (r) => r.amount,
    description: 'amount settled (balance lines: the balance)',
  },
];
