import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { crashPoint } from '../common/faults/crash-point';
import type { ShopScope } from '../common/tenancy';
import { PayoutRowsRepository } from '../line-items/payout-rows.repository';
import type { PayoutBatch } from '../payouts/payout-batch.schema';
import { PayoutBatchesRepository } from '../payouts/payout-batches.repository';
import { ShopLegalService } from '../shops/shop-legal.service';
import { ShopsService } from '../shops/shops.service';
import { TaxProfilesService } from '../tax-profiles/tax-profiles.service';
import { PayoutProvidersService } from '../transfers/payout-providers.service';
import { DOCUMENT_NUMBERING, type DocumentNumbering } from './document-numbering.port';
import { batchDocuments, type DocumentDraft, type DocumentRow } from './document-snapshot';
import { type DocumentParty, isNumbered } from './document.types';
import { DocumentEvents } from './document-events';
import { DocumentsRepository } from './documents.repository';
import type { IssuedDocument } from './issued-document.schema';

/**
 * Issues a paid batch's documents (DESIGN §14), resumable without transactions. The batch carries
 * `documentsDue` from the write that settles it; each step is idempotent, so a rerun (the job's
 * retry, the documents sweeper) finishes what a dead process began:
 *  1. every document is written `pending` with its final snapshot (unique per batch and kind: a
 *     rerun finds the one written first, snapshot included);
 *  2. a numbered kind gets its number from the allocator (which answers the same number for the
 *     same document again);
 *  3. pending → issued with its number, in one conditional write that also marks its event pending;
 *     then the audit entry and the `document.issued` event (both keyed by the document);
 *  4. once every document of the batch is issued, the batch's `documentsDue` is cleared.
 * A carried-forward batch settles no row, so it issues nothing (its rows are invoiced once, by the
 * batch that pays them).
 */
@Injectable()
export class DocumentIssuer {
  private readonly logger = new Logger('Documents');

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly batches: PayoutBatchesRepository,
    private readonly rows: PayoutRowsRepository,
    private readonly legal: ShopLegalService,
    private readonly shops: ShopsService,
    private readonly taxProfiles: TaxProfilesService,
    private readonly providers: PayoutProvidersService,
    private readonly events: DocumentEvents,
    private readonly clock: Clock,
    @Inject(DOCUMENT_NUMBERING) private readonly numbering: DocumentNumbering,
  ) {}

  /** Issues (or finishes issuing) the batch's documents; answers how many it issued now. */
  async issueForBatch(scope: ShopScope, batchId: string): Promise<number> {
    const batch = await this.batches.findById(scope, batchId);
    if (!batch || !batch.documentsDue) return 0;
    let issued = 0;
    if (batch.status === 'completed') {
      const existing = await this.documents.ofBatch(scope, batch._id);
      const drafts = await this.drafts(scope, batch);
      const pending: IssuedDocument[] = existing.filter((d) => d.state === 'pending');
      for (const draft of drafts) {
        if (existing.some((d) => d.type === draft.type)) continue;
        pending.push(await this.documents.findOrCreatePending(scope, this.pendingOf(batch, draft)));
        crashPoint('document:after-pending');
      }
      for (const doc of pending) if (await this.finish(scope, doc)) issued++;
    }
    await this.batches.documentsIssued(scope, batch._id);
    return issued;
  }

  /** Steps 2-3 for one pending document: numbered, issued, audited, announced. */
  private async finish(scope: ShopScope, doc: IssuedDocument): Promise<boolean> {
    const number = isNumbered(doc.type)
      ? await this.numbering.assign(scope, String(doc._id), doc.type, doc.issuedAt)
      : null;
    crashPoint('document:after-number');
    const done = await this.documents.issue(scope, doc._id, number, this.clock.now());
    if (!done) return false;
    crashPoint('document:after-issue');
    await this.events.issued(scope, done);
    return true;
  }

  private pendingOf(batch: PayoutBatch, draft: DocumentDraft) {
    return {
      vendorId: batch.vendorId,
      type: draft.type,
      series: draft.series,
      batchId: batch._id,
      orderId: null,
      orderIds: draft.orderIds,
      issuedAt: new Date(draft.snapshot.issuedAt),
      snapshot: draft.snapshot,
    };
  }

  /** What the batch issues, from the rows it settled and both parties as they are now. */
  private async drafts(scope: ShopScope, batch: PayoutBatch): Promise<DocumentDraft[]> {
    const vendorId = String(batch.vendorId);
    const [rows, shop, vendor, currency] = await Promise.all([
      this.rows.batchRows(scope, String(batch._id), batch.vendorId),
      this.legal.party(scope),
      this.taxProfiles.party(scope, vendorId),
      this.providers.currency(scope),
    ]);
    const refunded = [...new Set(rows.filter((r) => r.type === 'refund').map((r) => String(r.orderId)))];
    const prior = await this.documents.naming(scope, refunded, batch.vendorId);
    // A credit note names the invoices it corrects by number: an earlier batch's invoice still being
    // issued is waited for (this run fails; the job's retry or the sweeper issues it after).
    if (
      prior.some(
        (d) => d.state === 'pending' && d.type === 'commission_invoice' && !d.batchId?.equals(batch._id),
      )
    )
      throw new Error('An invoice this batch may correct is still being issued; retried after it');
    const shopName = shop.legalName ?? (await this.shopName(scope));
    const issuer: DocumentParty = {
      legalName: shopName,
      address: shop.address,
      vatId: shop.vatId,
      taxId: shop.taxId,
      businessRegistrationNumber: null,
    };
    const recipient: DocumentParty = {
      legalName: vendor.legalName ?? batch.vendorName,
      address: vendor.address,
      vatId: vendor.vatId,
      taxId: vendor.taxId,
      businessRegistrationNumber: vendor.businessRegistrationNumber,
    };
    return batchDocuments({
      batchId: String(batch._id),
      periodEnd: batch.cutoff,
      rows: rows.map((r): DocumentRow => ({
        orderId: r.orderId,
        orderName: r.orderName,
        orderCreatedAt: r.orderCreatedAt,
        type: r.type,
        commission: r.commission,
        taxOnCommissions: r.taxOnCommissions,
        salesAfterDiscount: r.salesAfterDiscount,
        tax: r.tax,
        batchPaidAmount: r.batchPaidAmount ?? null,
      })),
      adjustmentTotal: batch.adjustmentTotal,
      adjustmentCount: batch.adjustmentCount,
      issuedAt: this.clock.now(),
      currency,
      shop: issuer,
      vendor: recipient,
      selfBilling: shop.selfBilling && vendor.selfBillingConsent,
      priorInvoices: prior
        .filter((d) => d.state === 'issued')
        .map((d) => ({
          documentId: String(d._id),
          number: d.number,
          type: d.type,
          batchId: d.batchId ? String(d.batchId) : null,
          orderIds: d.orderIds,
        })),
    });
  }

  private async shopName(scope: ShopScope): Promise<string> {
    const shop = await this.shops.getById(scope.shopId);
    return shop.name ?? shop.domain;
  }
}
