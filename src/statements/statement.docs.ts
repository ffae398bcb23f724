import { describeColumns } from '../common/csv';
import { STATEMENT_CSV_COLUMNS } from './statement.columns';

/** The statement's OpenAPI texts, shared by the v1 and V2 operations. */
export const STATEMENT_CSV_DOC = {
  operation:
    'The vendor, the period, the balance carried in, every row the batch settled (sale rows, refund rows and ' +
    'adjustments, each with its figures and source ids), the totals, what the batch paid and the balance ' +
    'carried out. The balance carried in is what the previous batch carried forward; its rows stayed due and are ' +
    'settled (and listed) here, so it is part of the net, not added to it. With `Accept: text/csv` the same as ' +
    'CSV, streamed: an `opening_balance` line (for information), the rows, a `paid` line (what the batch paid, ' +
    'negative) and a `closing_balance` line; the rows and the `paid` line add up to the closing balance. A CSV statement is recorded in the audit trail (`payout_batch.statement.export`). ' +
    "Both are streamed whatever the batch's size: the JSON document has the same shape for every batch (every " +
    'row in `rows`, no paging), its rows read from the database a page (100 rows) at a time and written as they ' +
    'are read, `totals` summed over every row on the way and written after `rows`. A failure part-way ends the ' +
    'body before its closing brackets (invalid JSON, never a shorter statement that parses).',
  response: {
    description: 'The statement.',
    columns: describeColumns(STATEMENT_CSV_COLUMNS),
    example:
      'batchId,vendorId,vendorName,kind,date,rowId,orderId,orderName,lineItemId,refundId,refundLineItemId,adjustmentId,' +
      'description,sku,quantity,sales,discount,salesAfterDiscount,tax,shipping,commission,costOfItem,taxOnCommissions,' +
      'tcs,totalGlobalDeductions,deduction,payout,amount\r\n' +
      '6742c1d2e3f4a5b6c7d8e9f0,6740b9f1c2a4e15b3c9d0a21,acme apparel,opening_balance,2026-11-30T23:59:59.999Z,' +
      '6742c1d2e3f4a5b6c7d8e9f0,,,,,,,"Opening balance, period to 2026-11-30",,,,,,,,,,,,,,,0.00\r\n' +
      '6742c1d2e3f4a5b6c7d8e9f0,6740b9f1c2a4e15b3c9d0a21,acme apparel,sale,2026-11-20T09:30:00.000Z,' +
      '6741a0c2d3e4f5a6b7c8d9e1,5549201834154,#1042,13601741586602,,,,Canvas tote bag,ACME-TOTE,2,100.00,0.00,100.00,' +
      '0.00,0.00,10.00,0.00,0.00,0.00,0.00,0.00,90.00,90.00\r\n',
  },
};
