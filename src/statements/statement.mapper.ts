import type { PayoutAdjustment } from '../adjustments/payout-adjustment.schema';
import type { BatchTransferDto } from '../transfers/dto/transfer.dto';
import { subtractAmounts } from '../common/money';
import type { MoneyRowSource } from '../line-items/line-item-views';
import { figuresOf } from '../line-items/line-figures.mapper';
import type { PayoutBatch } from '../payouts/payout-batch.schema';
import type { StatementDto, StatementRowDto, StatementTotalsDto } from './dto/statement.dto';
import { StatementTally } from './statement-tally';

/**
 * The balances the payout engine records on a batch once it nets (DESIGN §8: a carried-forward
 * batch carries its net into the next one). Absent on batches written before netting existed.
 */
export type StatementBatch = PayoutBatch & { openingBalance?: number | null; closingBalance?: number | null };

/** A sale or refund row the batch settled; its amount is what the batch settled on it. */
export function toStatementRow(r: MoneyRowSource): StatementRowDto {
  const refund = r.type === 'refund';
  return {
    kind: refund ? 'refund' : 'sale',
    date: r.orderCreatedAt.toISOString(),
    rowId: String(r._id),
    orderId: r.orderId,
    orderName: r.orderName,
    lineItemId: r.lineItemId,
    refundId: r.refundId ?? null,
    refundLineItemId: r.refundLineItemId ?? null,
    adjustmentId: null,
    description: r.name,
    sku: r.sku ?? null,
    quantity: refund ? (r.refundedQuantity ?? null) : r.quantity,
    figures: figuresOf(r),
    amount: r.batchPaidAmount ?? r.payout,
  };
}

export function adjustmentStatementRow(a: PayoutAdjustment): StatementRowDto {
  return {
    kind: 'adjustment',
    date: a.customItemDate.toISOString(),
    rowId: String(a._id),
    orderId: null,
    orderName: null,
    lineItemId: null,
    refundId: null,
    refundLineItemId: null,
    adjustmentId: a.customId,
    description: a.comments ?? '',
    sku: null,
    quantity: null,
    figures: null,
    amount: a.amount,
  };
}

/** Adjustments in statement order: by their date, then id. */
export function sortAdjustments(list: PayoutAdjustment[]): PayoutAdjustment[] {
  return [...list].sort(
    (a, b) =>
      a.customItemDate.getTime() - b.customItemDate.getTime() || String(a._id).localeCompare(String(b._id)),
  );
}

/** What the batch paid: its total once completed (a carried-forward or unfinished batch pays nothing). */
export function paidBy(batch: StatementBatch): number {
  return batch.status === 'completed' ? Math.max(0, batch.total) : 0;
}

export function openingOf(batch: StatementBatch): number {
  return batch.openingBalance ?? 0;
}

/**
 * The batch's recorded closing balance, else net − paid. The opening balance is not added: the rows
 * a carried-forward batch left due are settled by this batch and listed among its rows (DESIGN §8).
 */
export function closingOf(batch: StatementBatch, net: number): number {
  return batch.closingBalance ?? subtractAmounts(net, paidBy(batch));
}

/** The statement's fields before its rows (`from`: the date of its first sale or refund row). */
export function statementHead(
  batch: StatementBatch,
  from: string | null,
): Pick<StatementDto, 'batchId' | 'status' | 'vendor' | 'period' | 'openingBalance'> {
  return {
    batchId: String(batch._id),
    status: batch.status,
    vendor: { id: String(batch.vendorId), name: batch.vendorName },
    period: { from, periodEnd: batch.periodEnd, cutoff: batch.cutoff.toISOString() },
    openingBalance: openingOf(batch),
  };
}

/** The statement's fields after its rows, from the totals over every row. */
export function statementTail(
  batch: StatementBatch,
  totals: StatementTotalsDto,
  transfer: BatchTransferDto | null,
): Pick<StatementDto, 'totals' | 'paid' | 'closingBalance' | 'transfer'> {
  return { totals, paid: paidBy(batch), closingBalance: closingOf(batch, totals.net), transfer };
}

export function buildStatement(
  batch: StatementBatch,
  rows: MoneyRowSource[],
  adjustments: PayoutAdjustment[],
  transfer: BatchTransferDto | null = null,
): StatementDto {
  const tally = new StatementTally();
  const lines = rows.map((r) => {
    const line = toStatementRow(r);
    tally.addRow(r, line);
    return line;
  });
  const adj = sortAdjustments(adjustments).map(adjustmentStatementRow);
  adj.forEach((l) => tally.addAdjustment(l));
  return {
    ...statementHead(batch, lines[0]?.date ?? null),
    rows: [...lines, ...adj],
    ...statementTail(batch, tally.totals(), transfer),
  };
}
