import type {
  DocumentLine,
  DocumentParty,
  DocumentSnapshot,
  DocumentTotals,
  DocumentType,
  NumberedDocumentType,
} from './document.types';
import { centsText, sumCents, toCents } from './document-money';

/** What a document reads of one row the batch settled (a sale or refund row; figures 2 dp). */
export interface DocumentRow {
  orderId: number;
  orderName: string | null;
  orderCreatedAt: Date;
  type?: 'sale' | 'refund' | null;
  commission: number;
  taxOnCommissions: number;
  salesAfterDiscount: number;
  tax: number;
  /** What the batch settled of the row (its payout balance when claimed). */
  batchPaidAmount: number | null;
}

/** An issued invoice that may be corrected (a credit note's `corrects`). */
export interface PriorInvoice {
  documentId: string;
  number: string | null;
  type: DocumentType;
  batchId: string | null;
  orderIds: string[];
}

export interface BatchDocumentInput {
  batchId: string;
  /** The batch's cut-off (the period's end) and its rows' first order date. */
  periodEnd: Date;
  rows: DocumentRow[];
  /** The adjustments the batch paid (the payout statement's last line). */
  adjustmentTotal: number;
  adjustmentCount: number;
  issuedAt: Date;
  currency: string;
  /** The operator (the shop's legal settings, its tax id opened). */
  shop: DocumentParty;
  /** The vendor (its tax profile, its tax id opened). */
  vendor: DocumentParty;
  /** The shop's `selfBilling` AND the vendor's recorded consent. */
  selfBilling: boolean;
  /** Issued invoices naming the orders the batch's refund rows refund. */
  priorInvoices: PriorInvoice[];
}

/** A document to issue: its kind and its snapshot (number null until numbered). */
export interface DocumentDraft {
  type: DocumentType;
  series: NumberedDocumentType | null;
  orderIds: string[];
  snapshot: DocumentSnapshot;
}

const withoutTaxId = (p: DocumentParty): DocumentParty => ({ ...p, taxId: null });

/**
 * The documents a paid batch issues (DESIGN §14), from the rows it settled:
 *  - commission_invoice when Σ(commission + taxOnCommissions) > 0, credit_note when < 0 (correcting
 *    the invoices of the batches that paid the refunded orders), none at 0; one line per order;
 *  - self_billed_invoice (the goods: Σ salesAfterDiscount, Σ tax) when self-billing is agreed;
 *  - payout_statement (unnumbered): what the batch paid, per order, then its adjustments.
 * Totals are the sums of the lines, in integer cents. Tax ids only on the self-billed invoice.
 */
export function batchDocuments(input: BatchDocumentInput): DocumentDraft[] {
  const drafts: DocumentDraft[] = [];
  const orderIds = [...new Set(input.rows.map((r) => String(r.orderId)))];
  const commission = linesByOrder(
    input.rows,
    (r) => [toCents(r.commission), toCents(r.taxOnCommissions)],
    (name) => `Commission on order ${name}`,
  );
  const commissionTotals = totalsOf(commission);
  const sign = toCents(commissionTotals.total);
  if (sign !== 0n) {
    const type = sign > 0n ? 'commission_invoice' : 'credit_note';
    drafts.push({
      type,
      series: type,
      orderIds,
      snapshot: base(input, type, {
        issuer: withoutTaxId(input.shop),
        recipient: withoutTaxId(input.vendor),
        mentions: [],
        lines: commission,
        totals: commissionTotals,
        corrects: type === 'credit_note' ? corrected(input) : [],
      }),
    });
  }
  if (input.selfBilling && input.rows.length > 0) {
    const goods = linesByOrder(
      input.rows,
      (r) => [toCents(r.salesAfterDiscount), toCents(r.tax)],
      (name) => `Goods sold, order ${name}`,
    );
    drafts.push({
      type: 'self_billed_invoice',
      series: 'self_billed_invoice',
      orderIds,
      // issued by the operator in the vendor's name: the vendor supplies, the operator receives
      snapshot: base(input, 'self_billed_invoice', {
        issuer: input.vendor,
        recipient: input.shop,
        mentions: ['Self-billing'],
        lines: goods,
        totals: totalsOf(goods),
        corrects: [],
      }),
    });
  }
  const paid = linesByOrder(
    input.rows,
    (r) => [toCents(r.batchPaidAmount), 0n],
    (name) => `Order ${name}`,
  );
  if (input.adjustmentCount > 0) {
    const amount = toCents(input.adjustmentTotal);
    paid.push({
      orderId: '',
      orderName: null,
      orderDate: input.periodEnd.toISOString(),
      description: `Payout adjustments (${input.adjustmentCount})`,
      net: centsText(amount),
      tax: '0.00',
      total: centsText(amount),
    });
  }
  drafts.push({
    type: 'payout_statement',
    series: null,
    orderIds,
    snapshot: base(input, 'payout_statement', {
      issuer: withoutTaxId(input.shop),
      recipient: withoutTaxId(input.vendor),
      mentions: [],
      lines: paid,
      totals: totalsOf(paid),
      corrects: [],
    }),
  });
  return drafts;
}

/** The invoices a credit note corrects: issued commission invoices of other batches naming a refunded order. */
function corrected(input: BatchDocumentInput): { documentId: string; number: string }[] {
  const refunded = new Set(input.rows.filter((r) => r.type === 'refund').map((r) => String(r.orderId)));
  return input.priorInvoices
    .filter(
      (d) =>
        d.type === 'commission_invoice' &&
        d.number !== null &&
        d.batchId !== input.batchId &&
        d.orderIds.some((o) => refunded.has(o)),
    )
    .map((d) => ({ documentId: d.documentId, number: d.number! }))
    .sort((a, b) => a.number.localeCompare(b.number));
}

function base(
  input: BatchDocumentInput,
  type: DocumentType,
  parts: Pick<DocumentSnapshot, 'issuer' | 'recipient' | 'mentions' | 'lines' | 'totals' | 'corrects'>,
): DocumentSnapshot {
  const from = input.rows.reduce<Date | null>(
    (min, r) => (min === null || r.orderCreatedAt < min ? r.orderCreatedAt : min),
    null,
  );
  return {
    type,
    number: null,
    issuedAt: input.issuedAt.toISOString(),
    currency: input.currency,
    issuer: parts.issuer,
    recipient: parts.recipient,
    mentions: parts.mentions,
    batchId: input.batchId,
    period: { from: from ? from.toISOString() : null, to: input.periodEnd.toISOString() },
    lines: parts.lines,
    totals: parts.totals,
    corrects: parts.corrects,
  };
}

/** One line per order (oldest order first): Σ net and Σ tax of its rows, in cents. */
export function linesByOrder(
  rows: DocumentRow[],
  figures: (r: DocumentRow) => [net: bigint, tax: bigint],
  describe: (orderName: string) => string,
): DocumentLine[] {
  const orders = new Map<number, { name: string | null; date: Date; net: bigint; tax: bigint }>();
  for (const r of rows) {
    const [net, tax] = figures(r);
    const o = orders.get(r.orderId);
    if (!o) {
      orders.set(r.orderId, { name: r.orderName || null, date: r.orderCreatedAt, net, tax });
      continue;
    }
    o.net += net;
    o.tax += tax;
    if (r.orderCreatedAt < o.date) o.date = r.orderCreatedAt;
    if (!o.name && r.orderName) o.name = r.orderName;
  }
  return [...orders.entries()]
    .sort(([ia, a], [ib, b]) => a.date.getTime() - b.date.getTime() || ia - ib)
    .map(([orderId, o]) => ({
      orderId: String(orderId),
      orderName: o.name,
      orderDate: o.date.toISOString(),
      description: describe(o.name ?? `#${orderId}`),
      net: centsText(o.net),
      tax: centsText(o.tax),
      total: centsText(o.net + o.tax),
    }));
}

/** Totals = Σ lines, in cents. */
export function totalsOf(lines: DocumentLine[]): DocumentTotals {
  const net = sumCents(lines.map((l) => toCents(l.net)));
  const tax = sumCents(lines.map((l) => toCents(l.tax)));
  return { net: centsText(net), tax: centsText(tax), total: centsText(net + tax) };
}
