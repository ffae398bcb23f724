import {
  type CommissionRuleRef,
  payoutState,
  REFUND_FIGURES,
  refundedSoFar,
  refundRowFigures,
  round2,
} from '../common/money';
import { LineItem, REFUND_ROW_FINANCIAL_STATUS } from './line-item.schema';

/**
 * What refund rows are cut from: a platform refund as stored (refunds/refund.schema.ts's `Refund`
 * is one). Declared here so the rows' rule never imports the refunds feature above it.
 */
export interface RefundSource {
  refundId: string;
  platformCreatedAt: Date;
  processedAt: Date | null;
  lines: Array<{ refundLineItemId: string; lineItemId: number; quantity: number }>;
}

/** A refund row to insert: the refund line item's share of its sale line (DESIGN §6). */
export type RefundRowDoc = Partial<LineItem>;

/**
 * The refund rows the order's refunds still lack, oldest refund first. A row exists at most once
 * per (refund id, refund line item id); a line item whose sale row is not stored yet waits (its
 * refund stays not applied). Pure: the caller reads the order's rows and refunds and writes these.
 */
export function plannedRefundRows(
  refunds: RefundSource[],
  rows: LineItem[],
): { docs: RefundRowDoc[]; appliedRefundIds: string[] } {
  const sales = new Map<number, LineItem>();
  const refunded = new Map<number, Array<Partial<LineItem>>>();
  const seen = new Set<string>();
  for (const r of rows) {
    if (r.type === 'refund') {
      seen.add(`${r.refundId}:${r.refundLineItemId}`);
      refunded.set(r.lineItemId, [...(refunded.get(r.lineItemId) ?? []), r]);
    } else sales.set(r.lineItemId, r);
  }
  const ordered = [...refunds].sort(
    (a, b) =>
      dateOf(a).getTime() - dateOf(b).getTime() ||
      a.refundId.localeCompare(b.refundId, 'en', { numeric: true }),
  );
  const docs: RefundRowDoc[] = [];
  const appliedRefundIds: string[] = [];
  for (const refund of ordered) {
    let complete = true;
    for (const line of refund.lines) {
      if (seen.has(`${refund.refundId}:${line.refundLineItemId}`)) continue;
      const sale = sales.get(line.lineItemId);
      if (!sale) {
        complete = false;
        continue;
      }
      const before = refunded.get(line.lineItemId) ?? [];
      const { figures, units } = refundRowFigures(sale, sale.quantity, line.quantity, refundedSoFar(before));
      const doc: RefundRowDoc = {
        type: 'refund',
        refundId: refund.refundId,
        refundLineItemId: line.refundLineItemId,
        refundedQuantity: units,
        orderId: sale.orderId,
        lineItemId: sale.lineItemId,
        vendorId: sale.vendorId,
        vendorName: sale.vendorName,
        orderName: sale.orderName,
        orderNumber: sale.orderNumber,
        orderCreatedAt: dateOf(refund),
        financialStatus: REFUND_ROW_FINANCIAL_STATUS,
        cancelled: false,
        name: sale.name,
        variantTitle: sale.variantTitle,
        sku: sale.sku,
        productId: sale.productId,
        variantId: sale.variantId,
        price: round2(sale.price),
        quantity: 0,
        commissionPlan: sale.commissionPlan,
        // The rule that priced the sale line priced the share this row reverses.
        commissionRule: sale.commissionRule ?? null,
        ...figures,
        ...payoutState(figures.payout, 0),
        fulfillmentStatus: sale.fulfillmentStatus,
        // A refund row is payable at once: it belongs to the vendor of its line.
        inPayouts: sale.vendorId != null,
      };
      docs.push(doc);
      seen.add(`${refund.refundId}:${line.refundLineItemId}`);
      refunded.set(line.lineItemId, [...before, { ...figures, refundedQuantity: units }]);
    }
    if (complete) appliedRefundIds.push(refund.refundId);
  }
  return { docs, appliedRefundIds };
}

/** Two rule references name the same rule (stored ids may be ObjectIds or strings). */
function sameRule(a: CommissionRuleRef | null | undefined, b: CommissionRuleRef | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.level === b.level && String(a.id) === String(b.id);
}

/** A refund row's date: the refund's processed_at, else its created_at. */
export function dateOf(refund: Pick<RefundSource, 'processedAt' | 'platformCreatedAt'>): Date {
  return refund.processedAt ?? refund.platformCreatedAt;
}

/** Refund rows in the order they were cut: by refund date, then refund id, then refund line item id. */
function cutOrder(a: LineItem, b: LineItem): number {
  const byNumber = (x: string | null, y: string | null) =>
    (x ?? '').localeCompare(y ?? '', 'en', { numeric: true });
  return (
    a.orderCreatedAt.getTime() - b.orderCreatedAt.getTime() ||
    byNumber(a.refundId, b.refundId) ||
    byNumber(a.refundLineItemId, b.refundLineItemId)
  );
}

/**
 * A sale line's unsettled refund rows cut again from its current figures (the line got a vendor, a
 * new commission, an order edit): the same rule, earlier rows first, settled rows kept as paid.
 * Returns the changes to write; none when every row already reads what the rule gives.
 */
export function recutRefundRows(
  sale: LineItem,
  refunds: LineItem[],
): Array<{ row: LineItem; set: Record<string, unknown> }> {
  const out: Array<{ row: LineItem; set: Record<string, unknown> }> = [];
  const before: Array<Partial<LineItem>> = [];
  for (const r of [...refunds].sort(cutOrder)) {
    if (r.frozen || r.batchId) {
      before.push(r);
      continue;
    }
    const { figures } = refundRowFigures(sale, sale.quantity, r.refundedQuantity ?? 0, refundedSoFar(before));
    const set: Record<string, unknown> = {
      ...figures,
      ...payoutState(figures.payout, r.paid ?? 0),
      vendorId: sale.vendorId,
      vendorName: sale.vendorName,
      commissionPlan: sale.commissionPlan,
      commissionRule: sale.commissionRule ?? null,
      inPayouts: sale.vendorId != null,
    };
    const same =
      REFUND_FIGURES.every((f) => r[f] === figures[f]) &&
      String(r.vendorId) === String(sale.vendorId) &&
      r.commissionPlan === sale.commissionPlan &&
      sameRule(r.commissionRule, sale.commissionRule);
    if (!same) out.push({ row: r, set });
    before.push({ ...r, ...figures });
  }
  return out;
}
