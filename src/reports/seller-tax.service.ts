import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { AuditTrail } from '../audit/audit-trail.service';
import { csvStream } from '../common/csv';
import type { ShopScope } from '../common/tenancy';
import { VendorsRepository } from '../vendors/vendors.repository';
import type { SellerTaxReportDto, SellerTaxVendorDto } from './dto/seller-tax-report.dto';
import { noProfile, SellerIdentities } from './seller-identities';
import { SellerTaxSummaries } from './seller-tax-summaries.service';
import { SELLER_TAX_CSV_COLUMNS, sellerTaxCsvLines } from './seller-tax.columns';
import { toSellerTaxVendor } from './seller-tax.mapper';

/**
 * The seller tax report (DESIGN §14, DAC7): per vendor and calendar quarter, what the operator paid
 * or credited it, for how many orders, and what it withheld, with the vendor's identity. Reads: the
 * year's per-(vendor, quarter) figures kept in `seller_tax_years` (refreshed from the rows first
 * where the tally marked them: seller-tax-summaries.service.ts), the vendors' names, and the
 * identities (one call).
 */
@Injectable()
export class SellerTaxService {
  constructor(
    private readonly summaries: SellerTaxSummaries,
    private readonly vendors: VendorsRepository,
    private readonly identities: SellerIdentities,
    private readonly audit: AuditTrail,
  ) {}

  /** The report as JSON, its export recorded in the audit trail. */
  async report(scope: ShopScope, year: number): Promise<SellerTaxReportDto> {
    const report = await this.build(scope, year);
    await this.recordExport(scope, report, 'json');
    return report;
  }

  /** The same report as CSV (SELLER_TAX_CSV_COLUMNS), streamed line by line; the export audited. */
  async reportCsv(scope: ShopScope, year: number): Promise<{ stream: Readable; filename: string }> {
    const report = await this.build(scope, year);
    await this.recordExport(scope, report, 'csv');
    return {
      stream: csvStream(SELLER_TAX_CSV_COLUMNS, Readable.from(sellerTaxCsvLines(report))),
      filename: `seller-tax-${year}.csv`,
    };
  }

  /**
   * Who took the report out, of which year, in which format and how many vendor rows (`rowCount`):
   * never an identity value — the tax ids and dates of birth the report carries stay out of the trail.
   */
  private recordExport(scope: ShopScope, report: SellerTaxReportDto, format: 'json' | 'csv'): Promise<void> {
    return this.audit.recordNow(
      scope,
      'shop.seller_tax_report.export',
      { type: 'shop', id: scope.shopId },
      { year: report.year, format, rowCount: report.vendors.length },
    );
  }

  private async build(scope: ShopScope, year: number): Promise<SellerTaxReportDto> {
    // vendorId → its four quarters in cents
    const byVendor = await this.summaries.year(scope, year);
    const ids = [...byVendor.keys()];
    const [vendors, identities] = await Promise.all([
      ids.length ? this.vendors.findSummaries(scope, ids) : Promise.resolve([]),
      ids.length ? this.identities.read(scope, ids) : Promise.resolve(new Map()),
    ]);
    const vendorOf = new Map(vendors.map((v) => [String(v._id), v]));
    const rows: SellerTaxVendorDto[] = ids.map((id) =>
      toSellerTaxVendor(id, vendorOf.get(id), identities.get(id) ?? noProfile(), byVendor.get(id)!),
    );
    rows.sort(byName);
    return { year, vendors: rows };
  }
}

/** Vendor name, then id: names are unique per shop, the id only orders a vendor whose record is gone. */
function byName(a: SellerTaxVendorDto, b: SellerTaxVendorDto): number {
  if (a.vendorName !== b.vendorName) return a.vendorName < b.vendorName ? -1 : 1;
  return a.vendorId < b.vendorId ? -1 : a.vendorId > b.vendorId ? 1 : 0;
}
