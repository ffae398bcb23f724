import { Readable } from 'node:stream';
import { PDF_BOLD, pdfKitDocument, type PdfKitDoc } from '../common/pdf/pdfkit';
import { PDF_FONT } from '../common/pdf/pdf-fonts';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { StatementRowDto } from './dto/statement.dto';
import { type StatementBatch, statementTail, toStatementRow, openingOf } from './statement.mapper';
import { StatementTally } from './statement-tally';

/** Who the statement is from (the shop's legal name and address, when set). */
export interface StatementIssuer {
  name: string | null;
  addressLine: string | null;
}

const FONT_SIZE = 7.5;
const ROW_H = 11;
const TOP = 36;
const BOTTOM = 595 - 50; // above the footer
const LEFT = 36;
/** The columns: the statement's own fields, its figures as the JSON statement has them. */
const COLS: { head: string; width: number; right?: boolean; cell: (r: StatementRowDto) => string }[] = [
  { head: 'Date', width: 52, cell: (r) => r.date.slice(0, 10) },
  { head: 'Kind', width: 46, cell: (r) => r.kind },
  { head: 'Order', width: 58, cell: (r) => r.orderName ?? r.adjustmentId ?? '' },
  { head: 'Description', width: 190, cell: (r) => r.description },
  { head: 'SKU', width: 70, cell: (r) => r.sku ?? '' },
  { head: 'Qty', width: 26, right: true, cell: (r) => (r.quantity === null ? '' : String(r.quantity)) },
  { head: 'Sales after discount', width: 66, right: true, cell: (r) => money(r.figures?.salesAfterDiscount) },
  { head: 'Commission', width: 58, right: true, cell: (r) => money(r.figures?.commission) },
  { head: 'Tax on comm.', width: 58, right: true, cell: (r) => money(r.figures?.taxOnCommissions) },
  { head: 'Payout', width: 62, right: true, cell: (r) => money(r.figures?.payout) },
  { head: 'Amount', width: 66, right: true, cell: (r) => money(r.amount) },
];
const GAP = 2;

/** A stored 2-dp amount as the JSON statement's number reads (90 → "90.00", -0.5 → "-0.50"). */
export function money(v: number | null | undefined): string {
  return v === null || v === undefined ? '' : v.toFixed(2);
}

/**
 * The statement as a PDF, drawn with pdfkit as its rows stream from the database cursor (none is
 * kept: the totals are added up on the way with the JSON statement's own StatementTally, so both
 * print the same figures). Each row is one line (a long description is cut to its column), so the
 * page count is a function of the number of lines: `rowCount` (the batch's rows, counted before the
 * cursor opens) gives "page X of Y" up front, each page's footer is drawn as the page is left and
 * the page is written out then (no page is held until the end: issue 32). Deterministic for the
 * same batch and rows: the metadata dates are the batch's completion (else its cut-off).
 */
export function statementPdf(
  batch: StatementBatch,
  rows: AsyncIterable<MoneyRowSource>,
  adjustments: StatementRowDto[],
  issuer: StatementIssuer,
  rowCount: number,
): Readable {
  const doc = pdfKitDocument(
    batch.completedAt ?? batch.cutoff,
    `Payout statement ${batch.periodEnd} ${String(batch._id)}`,
  );
  const pages = statementPageCount(rowCount + adjustments.length);
  void draw(doc, batch, rows, adjustments, issuer, pages).catch((err: Error) => doc.destroy(err));
  return doc as unknown as Readable;
}

const HEADER_H = 24 + 4 * 12 + 6;
const HEADS_H = ROW_H + 1;
const TOTAL_LINES = 7;

/**
 * Where the next line goes, page by page. The same arithmetic draws the statement and counts its
 * pages before anything is drawn (statementPageCount), so the two cannot disagree.
 */
class Pager {
  page = 1;
  y = TOP + HEADER_H + HEADS_H;

  /** Room for one more row? If not, the next page starts (under its column heads). */
  row(): { newPage: boolean; y: number } {
    const newPage = this.y + ROW_H > BOTTOM;
    if (newPage) {
      this.page++;
      this.y = TOP + HEADS_H;
    }
    const y = this.y;
    this.y += ROW_H;
    return { newPage, y };
  }

  /** The totals block stays on one page: a new one (without heads) if it does not fit. */
  totals(): { newPage: boolean; y: number } {
    const newPage = this.y + ROW_H * (TOTAL_LINES + 2) > BOTTOM;
    if (newPage) {
      this.page++;
      this.y = TOP;
    }
    return { newPage, y: this.y + ROW_H };
  }
}

/** The pages of a statement of `lines` rows and adjustments. */
export function statementPageCount(lines: number): number {
  const pager = new Pager();
  for (let i = 0; i < lines; i++) pager.row();
  pager.totals();
  return pager.page;
}

async function draw(
  doc: PdfKitDoc,
  batch: StatementBatch,
  rows: AsyncIterable<MoneyRowSource>,
  adjustments: StatementRowDto[],
  issuer: StatementIssuer,
  pages: number,
): Promise<void> {
  header(doc, batch, issuer);
  heads(doc, TOP + HEADER_H);
  const pager = new Pager();
  const footerLeft = `${issuer.name ?? 'Payout statement'} · ${batch.vendorName} · batch ${String(batch._id)}`;
  const nextPage = () => {
    footer(doc, footerLeft, pager.page - 1, Math.max(pages, pager.page - 1));
    doc.addPage();
  };
  const tally = new StatementTally();
  let from: string | null = null;
  const line = (r: StatementRowDto) => {
    const at = pager.row();
    if (at.newPage) {
      nextPage();
      heads(doc, TOP);
    }
    row(doc, r, at.y);
  };
  let n = 0;
  for await (const source of rows) {
    const r = toStatementRow(source);
    from ??= r.date;
    tally.addRow(source, r);
    line(r);
    // let the socket drain and other requests run between pages' worth of rows
    if (++n % 200 === 0) await new Promise((res) => setImmediate(res));
  }
  for (const a of adjustments) {
    tally.addAdjustment(a);
    line(a);
  }
  const tail = statementTail(batch, tally.totals(), null);
  const totals: [string, string][] = [
    ['Opening balance (carried in, for information)', money(openingOf(batch))],
    [`Sales (${tail.totals.saleCount} rows)`, money(tail.totals.sales)],
    [`Refunds (${tail.totals.refundCount} rows)`, money(tail.totals.refunds)],
    [`Adjustments (${tail.totals.adjustmentCount})`, money(tail.totals.adjustments)],
    ['Net', money(tail.totals.net)],
    ['Paid by this batch', money(tail.paid)],
    ['Closing balance', money(tail.closingBalance)],
  ];
  const at = pager.totals();
  if (at.newPage) nextPage();
  let y = at.y;
  const labelX = LEFT + 440;
  for (const [label, value] of totals) {
    doc.font(PDF_BOLD).text(label, labelX, y, { lineBreak: false });
    rightText(doc, value, LEFT + 770, y);
    y += ROW_H + 2;
  }
  doc.font(PDF_FONT).fontSize(FONT_SIZE);
  doc.text(`First row dated ${from ? from.slice(0, 10) : '—'}.`, LEFT, y + 4, { lineBreak: false });
  footer(doc, footerLeft, pager.page, Math.max(pages, pager.page));
  doc.end();
}

/** The statement's head: HEADER_H high. */
function header(doc: PdfKitDoc, batch: StatementBatch, issuer: StatementIssuer): void {
  doc.font(PDF_BOLD).fontSize(16).text('Payout statement', LEFT, TOP, { lineBreak: false });
  doc.font(PDF_FONT).fontSize(9);
  const lines = [
    `Vendor: ${batch.vendorName} (${String(batch.vendorId)})`,
    `From: ${issuer.name ?? '—'}${issuer.addressLine ? `, ${issuer.addressLine}` : ''}`,
    `Payout batch: ${String(batch._id)} · status ${batch.status}`,
    `Period to ${batch.periodEnd} (cut-off ${batch.cutoff.toISOString()})`,
  ];
  let y = TOP + 24;
  for (const l of lines) {
    doc.text(l, LEFT, y, { lineBreak: false });
    y += 12;
  }
}

function heads(doc: PdfKitDoc, y: number): number {
  doc.font(PDF_BOLD).fontSize(FONT_SIZE);
  let x = LEFT;
  for (const c of COLS) {
    if (c.right) rightText(doc, c.head, x + c.width, y);
    else doc.text(c.head, x, y, { lineBreak: false });
    x += c.width + GAP;
  }
  doc
    .moveTo(LEFT, y + ROW_H - 2)
    .lineTo(x, y + ROW_H - 2)
    .lineWidth(0.5)
    .stroke();
  doc.font(PDF_FONT);
  return y + ROW_H + 1;
}

function row(doc: PdfKitDoc, r: StatementRowDto, y: number): void {
  let x = LEFT;
  for (const c of COLS) {
    const v = c.cell(r);
    if (v) {
      if (c.right) rightText(doc, v, x + c.width, y);
      else doc.text(clipToWidth(doc, v, c.width), x, y, { lineBreak: false });
    }
    x += c.width + GAP;
  }
}

function rightText(doc: PdfKitDoc, text: string, rightEdge: number, y: number): void {
  doc.text(text, rightEdge - doc.widthOfString(text), y, { lineBreak: false });
}

/** The text cut to the column (with "…"); one line per row keeps the page count a function of the rows. */
function clipToWidth(doc: PdfKitDoc, text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length * FONT_SIZE * 0.45 < width) return flat; // short enough without measuring
  if (doc.widthOfString(flat) <= width) return flat;
  let lo = 0;
  let hi = flat.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (doc.widthOfString(`${flat.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${flat.slice(0, lo)}…`;
}

/** The footer of the page being drawn: who and which batch, "page X of Y". */
function footer(doc: PdfKitDoc, left: string, page: number, pages: number): void {
  doc.font(PDF_FONT).fontSize(7);
  doc.text(left, LEFT, 595 - 44, { lineBreak: false });
  rightText(doc, `page ${page} of ${pages}`, LEFT + 770, 595 - 44);
  doc.font(PDF_FONT).fontSize(FONT_SIZE);
}
