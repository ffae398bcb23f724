import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { AuditTrail } from '../audit/audit-trail.service';
import { csvStream, reportExport } from '../common/csv';
import { NotFoundError } from '../common/errors';
import { sumAmounts } from '../common/money';
import { shopScope, type ShopScope } from '../common/tenancy';
import type { MoneyRowSource } from '../line-items/line-item-views';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { PayoutBatchesRepository } from '../payouts/payout-batches.repository';
import { ShopLegalService } from '../shops/shop-legal.service';
import { TransfersService } from '../transfers/transfers.service';
import { STATEMENT_CSV_COLUMNS, type StatementCsvLine } from './statement.columns';
import { statementJson } from './statement-json';
import { statementPdf } from './statement-pdf';
import {
  adjustmentStatementRow,
  closingOf,
  openingOf,
  paidBy,
  sortAdjustments,
  type StatementBatch,
  toStatementRow,
} from './statement.mapper';

/**
 * Statements: what one payout batch settled, read from the rows and adjustments that carry the
 * batch's id. Shop tokens read any batch of the shop, vendor tokens only their own (the batch is
 * looked up in the caller's scope: another vendor's batch is a 404).
 */
@Injectable()
export class StatementsService {
  constructor(
    private readonly batches: PayoutBatchesRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly audit: AuditTrail,
    private readonly transfers: TransfersService,
    private readonly legal: ShopLegalService,
  ) {}

  /**
   * The statement as JSON, streamed (statement-json.ts): its sale and refund rows from a database
   * cursor (read EXPORT_BATCH_SIZE at a time), totals summed as they pass. `envelope`: V2's body.
   * An unknown or foreign batch is a 404 before anything is written.
   */
  async statementJson(scope: ShopScope, batchId: string, envelope: boolean): Promise<Readable> {
    const batch = await this.batch(scope, batchId);
    const [adjustments, transfer] = await Promise.all([
      this.adjustments.settledByBatch(scope, String(batch._id), batch.vendorId),
      this.transfers.ofBatch(scope, batch._id),
    ]);
    const rows = this.lineItems.streamBatchRows(scope, String(batch._id), batch.vendorId);
    const adjustmentRows = sortAdjustments(adjustments).map(adjustmentStatementRow);
    const stream = statementJson(batch, rows, adjustmentRows, transfer, envelope);
    // a client gone or a failure mid-way: the cursor is closed, not left open on the server
    stream.once('close', () => void rows.close().catch(() => undefined));
    return stream;
  }

  /**
   * The statement as CSV, its rows streamed from a database cursor between the opening balance
   * line and the closing lines (computed as the rows pass). Audited when it starts.
   */
  async statementCsv(scope: ShopScope, batchId: string): Promise<{ stream: Readable; filename: string }> {
    const batch = await this.batch(scope, batchId);
    const adjustments = sortAdjustments(
      await this.adjustments.settledByBatch(scope, String(batch._id), batch.vendorId),
    );
    await this.audit.recordNow(
      scope,
      'payout_batch.statement.export',
      { type: 'payout_batch', id: batch._id },
      { format: 'csv', vendorId: String(batch.vendorId), periodEnd: batch.periodEnd },
    );
    const rows = this.lineItems.streamBatchRows(scope, String(batch._id), batch.vendorId);
    const lines = Readable.from(statementLines(batch, rows, adjustments.map(adjustmentStatementRow)));
    const started = performance.now();
    const stream = csvStream(STATEMENT_CSV_COLUMNS, lines, (count, err) => {
      if (err) rows.close().catch(() => undefined);
      reportExport({
        kind: 'statement',
        rows: count,
        ok: !err,
        seconds: (performance.now() - started) / 1000,
      });
    });
    return { stream, filename: `statement-${batch.periodEnd}-${String(batch._id)}.csv` };
  }

  /**
   * The statement as a PDF (issue 32): the same rows and totals as the JSON and CSV, drawn as they
   * stream from the cursor and written out page by page (statement-pdf.ts); the rows are counted
   * first (with the adjustments and the legal details, side by side) for "page X of Y". A batch's
   * rows are frozen once it completes; a statement of a batch still being written numbers its pages
   * from the count at its start. Audited like the CSV when it starts.
   */
  async statementPdf(scope: ShopScope, batchId: string): Promise<{ stream: Readable; filename: string }> {
    const batch = await this.batch(scope, batchId);
    const [adjustments, legal, rowCount] = await Promise.all([
      this.adjustments.settledByBatch(scope, String(batch._id), batch.vendorId),
      this.legal.get(shopScope(scope.shopId)),
      this.lineItems.countBatchRows(scope, String(batch._id), batch.vendorId),
    ]);
    await this.audit.recordNow(
      scope,
      'payout_batch.statement.export',
      { type: 'payout_batch', id: batch._id },
      { format: 'pdf', vendorId: String(batch.vendorId), periodEnd: batch.periodEnd },
    );
    const rows = this.lineItems.streamBatchRows(scope, String(batch._id), batch.vendorId);
    const a = legal.address;
    const issuer = {
      name: legal.legalName,
      addressLine: a
        ? [a.line1, a.line2, `${a.postalCode} ${a.city}`, a.country].filter(Boolean).join(', ')
        : null,
    };
    const adjustmentRows = sortAdjustments(adjustments).map(adjustmentStatementRow);
    const stream = statementPdf(batch, rows, adjustmentRows, issuer, rowCount);
    stream.once('close', () => void rows.close().catch(() => undefined));
    return { stream, filename: `statement-${batch.periodEnd}-${String(batch._id)}.pdf` };
  }

  private async batch(scope: ShopScope, id: string): Promise<StatementBatch> {
    const batch = await this.batches.findById(scope, id);
    if (!batch) throw new NotFoundError('Payout batch');
    return batch;
  }
}

/** The CSV's lines in order; the net is summed as the rows stream by (no row is kept). */
async function* statementLines(
  batch: StatementBatch,
  rows: AsyncIterable<MoneyRowSource>,
  adjustments: ReturnType<typeof adjustmentStatementRow>[],
): AsyncGenerator<StatementCsvLine> {
  const about = {
    batchId: String(batch._id),
    vendorId: String(batch.vendorId),
    vendorName: batch.vendorName,
  };
  const balanceLine = (kind: StatementCsvLine['kind'], amount: number, description: string) => ({
    ...about,
    kind,
    date: batch.cutoff.toISOString(),
    rowId: String(batch._id),
    orderId: null,
    orderName: null,
    lineItemId: null,
    refundId: null,
    refundLineItemId: null,
    adjustmentId: null,
    description,
    sku: null,
    quantity: null,
    figures: null,
    amount,
  });
  yield balanceLine('opening_balance', openingOf(batch), `Opening balance, period to ${batch.periodEnd}`);
  let net = 0;
  for await (const r of rows) {
    const line = toStatementRow(r);
    net = sumAmounts([net, line.amount]);
    yield { ...about, ...line };
  }
  for (const a of adjustments) {
    net = sumAmounts([net, a.amount]);
    yield { ...about, ...a };
  }
  yield balanceLine('paid', -paidBy(batch), `Paid by the batch (${batch.status})`);
  yield balanceLine('closing_balance', closingOf(batch, net), 'Closing balance');
}
