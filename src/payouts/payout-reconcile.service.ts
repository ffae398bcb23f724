import { Injectable } from '@nestjs/common';
import { PayoutAdjustmentsRepository } from '../adjustments/payout-adjustments.repository';
import { fromCents, sumAmounts } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import { VendorsRepository, VendorSummary } from '../vendors/vendors.repository';
import { PayoutBatchesRepository } from './payout-batches.repository';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { TransfersRepository } from '../transfers/transfers.repository';
import { reconcileTransfers, TransferReconciliation } from './transfer-reconcile';
import { VendorTally } from '../line-items/vendor-tally.service';

export interface VendorReconciliation {
  vendorId: string;
  vendorName: string;
  /** Σ payout of the vendor's sale rows (payable or not) and of its refund rows (≤ 0). */
  saleRows: number;
  refundRows: number;
  /** Σ of its adjustments (signed), and of those PAID. */
  adjustments: number;
  adjustmentsPaid: number;
  /** Σ of the totals of its paid batches, and what its rows and adjustments say those batches paid. */
  paidByBatches: number;
  paidOnRows: number;
  /**
   * The maintained balance (vendor_balances): paid to date, carried forward, and the tally's sums
   * of the unpaid rows (`dueRows`: payable, `pendingRows`: not captured yet).
   */
  balance: { paidToDate: number; carriedForward: number; dueRows: number; pendingRows: number };
  /** Due now from the rows: unpaid payable rows + UNPAID adjustments. */
  due: number;
  /** Not payable yet from the rows: unpaid rows of orders whose money is not captured. */
  pending: number;
  /** The transfers side (DESIGN §10): sent, credited back after a failure, delivered. */
  transfers: Omit<TransferReconciliation, 'differences'>;
  ok: boolean;
  differences: string[];
}

/**
 * `payouts:reconcile` (DESIGN §8): proves each vendor's maintained balance and every settled batch
 * against the rows and adjustments, from scratch. Differences are named; `ok` is false on any.
 */
@Injectable()
export class PayoutReconcileService {
  constructor(
    private readonly vendors: VendorsRepository,
    private readonly lineItems: PayoutRowsRepository,
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly transfers: TransfersRepository,
    private readonly tally: VendorTally,
  ) {}

  async reconcile(scope: ShopScope): Promise<{ ok: boolean; vendors: VendorReconciliation[] }> {
    const vendors = await this.vendors.listAll(scope);
    const out: VendorReconciliation[] = [];
    for (const v of vendors) out.push(await this.vendor(scope, v));
    return { ok: out.every((v) => v.ok), vendors: out };
  }

  async vendor(scope: ShopScope, v: VendorSummary): Promise<VendorReconciliation> {
    // Rows changed in flight (or left marked by a crash) are counted first: what is proven below is
    // that the sums equal the rows once every change is counted — a drift stays a difference.
    // (Another run counting this vendor is waited for; if it never finishes, the sums are compared
    // as they are and any difference is reported.)
    await this.tally.settleFully(scope, [v._id]);
    const [rows, adjustments, batches, stored, transfers] = await Promise.all([
      this.lineItems.forReconcile(scope, v._id),
      this.adjustments.forReconcile(scope, v._id),
      this.batches.settledForVendor(scope, v._id),
      this.balances.find(scope, v._id),
      this.transfers.forReconcile(scope, v._id),
    ]);
    const differences: string[] = [];
    const settled = new Set(batches.map((b) => String(b._id)));
    const paidRows = rows.filter((r) => r.frozen && r.batchId);
    for (const r of rows) {
      if (r.batchId && !r.frozen && settled.has(r.batchId)) {
        differences.push(`row ${String(r._id)} is held by settled batch ${r.batchId} but not paid`);
      }
    }
    const paidAdjustments = adjustments.filter((a) => a.status === 'PAID');
    const paidByBatches = sumAmounts(batches.map((b) => b.total));
    const paidOnRows = sumAmounts([
      ...paidRows.filter((r) => settled.has(r.batchId!)).map((r) => r.batchPaidAmount ?? 0),
      ...paidAdjustments.filter((a) => settled.has(a.batchId)).map((a) => a.amount),
    ]);
    if (paidByBatches !== paidOnRows) {
      differences.push(`batches paid ${paidByBatches} but their rows and adjustments say ${paidOnRows}`);
    }
    for (const b of batches) {
      if (b.status === 'completed' && !(b.total > 0))
        differences.push(`batch ${String(b._id)} paid ${b.total}`);
      if (b.status === 'completed' && b.net !== null && b.net !== undefined && b.net !== b.total) {
        differences.push(`batch ${String(b._id)} netted ${b.net} but paid ${b.total}`);
      }
      if (b.status === 'carried_forward' && (b.total !== 0 || (b.net ?? 0) > 0)) {
        differences.push(`carried-forward batch ${String(b._id)} paid ${b.total} of a net ${b.net}`);
      }
      if (b.status === 'below_minimum' && (b.total !== 0 || !((b.net ?? 0) > 0))) {
        differences.push(`below-minimum batch ${String(b._id)} paid ${b.total} of a net ${b.net}`);
      }
    }
    const paidToDate = fromCents(stored?.paidToDateCents ?? 0);
    if (paidToDate !== paidByBatches) {
      differences.push(`maintained paidToDate ${paidToDate} but the batches paid ${paidByBatches}`);
    }
    const last = batches[0];
    const carries = last?.status === 'carried_forward' || last?.status === 'below_minimum';
    const expectedCarried = carries ? (last.net ?? 0) : 0;
    const carriedForward = stored?.carriedForward ?? 0;
    if (carriedForward !== expectedCarried) {
      differences.push(
        `maintained carriedForward ${carriedForward} but the last batch says ${expectedCarried}`,
      );
    }
    const { differences: transferDifferences, ...transferFigures } = reconcileTransfers(
      batches,
      transfers,
      adjustments,
    );
    differences.push(...transferDifferences);
    const unpaid = rows.filter((r) => !r.frozen);
    const dueOnRows = sumAmounts(unpaid.filter((r) => r.inPayouts).map((r) => r.balance));
    const pending = sumAmounts(unpaid.filter((r) => !r.inPayouts).map((r) => r.balance));
    const dueRows = fromCents(stored?.dueCents ?? 0);
    const pendingRows = fromCents(stored?.pendingCents ?? 0);
    if (dueRows !== dueOnRows)
      differences.push(`maintained due ${dueRows} but the unpaid payable rows sum to ${dueOnRows}`);
    if (pendingRows !== pending)
      differences.push(
        `maintained pending ${pendingRows} but the unpaid rows not payable yet sum to ${pending}`,
      );
    const due = sumAmounts([
      dueOnRows,
      ...adjustments.filter((a) => a.status === 'UNPAID').map((a) => a.amount),
    ]);
    return {
      vendorId: String(v._id),
      vendorName: v.vendorName,
      saleRows: sumAmounts(rows.filter((r) => r.type !== 'refund').map((r) => r.payout)),
      refundRows: sumAmounts(rows.filter((r) => r.type === 'refund').map((r) => r.payout)),
      adjustments: sumAmounts(adjustments.map((a) => a.amount)),
      adjustmentsPaid: sumAmounts(paidAdjustments.map((a) => a.amount)),
      paidByBatches,
      paidOnRows,
      balance: { paidToDate, carriedForward, dueRows, pendingRows },
      due,
      pending,
      transfers: transferFigures,
      ok: differences.length === 0,
      differences,
    };
  }
}
