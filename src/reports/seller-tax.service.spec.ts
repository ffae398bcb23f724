import { Types } from 'mongoose';
import { Readable } from 'node:stream';
import { asReal, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { FakeSellerTaxYears, FakeTaxMarks, idleTally } from '../../test/fakes/seller-tax-years.fake';
import { FakeSellerTaxRows, type TaxRow } from '../../test/fakes/seller-tax-rows.fake';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import { cents, fmt } from '../../test/support/cents';
import { csvObjects } from '../../test/support/csv';
import type { AuditTrail } from '../audit/audit-trail.service';
import type { ShopScope } from '../common/tenancy';
import type { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import type { SellerTaxRowsRepository } from '../line-items/seller-tax-rows.repository';
import type { VendorTally } from '../line-items/vendor-tally.service';
import type { SellerTaxYearsRepository } from './seller-tax-years.repository';
import { SellerTaxSummaries } from './seller-tax-summaries.service';
import type { VendorsRepository } from '../vendors/vendors.repository';
import { SellerTaxService } from './seller-tax.service';
import { noProfile, SellerIdentities, type SellerIdentityStatus } from './seller-identities';

/** Identities the test sets per vendor id; the rest answered as having no tax profile. */
class FakeIdentities extends SellerIdentities {
  readonly known = new Map<string, SellerIdentityStatus>();
  asked: string[][] = [];
  async read(_scope: ShopScope, ids: string[]) {
    this.asked.push(ids);
    return new Map(ids.map((id) => [id, this.known.get(id) ?? noProfile()]));
  }
}

/** The audit trail's export records, kept as called. */
class FakeExportAudit implements Pick<AuditTrail, 'recordNow'> {
  readonly calls: Array<Parameters<AuditTrail['recordNow']>> = [];
  async recordNow(...args: Parameters<AuditTrail['recordNow']>) {
    this.calls.push(args);
  }
}

const ZERO = { commission: 0, taxOnCommissions: 0, tcs: 0, totalGlobalDeductions: 0, deduction: 0 };

function setup() {
  const rows = new FakeSellerTaxRows();
  const vendors = new FakeVendorsRepository();
  const identities = new FakeIdentities();
  const audit = new FakeExportAudit();
  const quarters = new FakeSellerTaxYears();
  const marks = new FakeTaxMarks(() => rows.rows);
  const summaries = new SellerTaxSummaries(
    asReal<SellerTaxRowsRepository>(rows),
    asReal<VendorBalancesRepository>(marks),
    asReal<SellerTaxYearsRepository>(quarters),
    asReal<VendorTally>(idleTally),
  );
  const service = new SellerTaxService(
    summaries,
    asReal<VendorsRepository>(vendors),
    identities,
    asReal<AuditTrail>(audit),
  );
  const row = (
    v: { _id: Types.ObjectId; shopId: Types.ObjectId },
    orderId: number,
    at: string,
    salesAfterDiscount: number,
    more: Partial<TaxRow> = {},
  ) =>
    rows.rows.push({
      shopId: v.shopId,
      vendorId: v._id,
      orderId,
      type: 'sale',
      inPayouts: true,
      orderCreatedAt: new Date(at),
      salesAfterDiscount,
      ...ZERO,
      ...more,
    });
  return { rows, vendors, identities, audit, service, row, quarters, marks };
}

const text = async (s: Readable) => {
  let out = '';
  for await (const chunk of s) out += String(chunk);
  return out;
};

describe('SellerTaxService', () => {
  it('puts each row in its quarter (boundary included), counts distinct orders, nets refunds by their own date', async () => {
    const { vendors, service, row, rows } = setup();
    const [b, a] = vendors.add(vendor('bravo'), vendor('alpha'));
    row(a, 1, '2025-03-31T23:59:59.000Z', 10.1, { commission: 1.01, taxOnCommissions: 0.18 });
    row(a, 1, '2025-03-31T23:59:59.000Z', 20.2, { commission: 2.02, tcs: 0.2 });
    row(a, 2, '2025-04-01T00:00:00.000Z', 30.3, { totalGlobalDeductions: 0.61, deduction: 1 });
    // a refund of order 1 dated in Q3: there, not in Q1
    row(a, 1, '2025-07-02T10:00:00.000Z', -10.1, {
      type: 'refund',
      commission: -1.01,
      taxOnCommissions: -0.18,
    });
    // an old sale row without a type is a sale
    row(b, 3, '2025-11-30T10:00:00.000Z', 5, { type: null });
    // not counted: an unpaid order's row, another year, another shop
    row(a, 4, '2025-05-01T00:00:00.000Z', 99, { inPayouts: false });
    row(a, 5, '2024-12-31T23:59:59.999Z', 99);
    row(a, 6, '2026-01-01T00:00:00.000Z', 99);
    rows.rows.push({ ...rows.rows[0], shopId: new Types.ObjectId(OTHER_SHOP.shopId), orderId: 7 });

    const report = await service.report(SHOP, 2025);
    expect(report.year).toBe(2025);
    expect(report.vendors.map((v) => v.vendorName)).toEqual(['alpha', 'bravo']);
    const [alpha, bravo] = report.vendors;
    expect(alpha.vendorId).toBe(String(a._id));
    expect(alpha.quarters.map((q) => [q.quarter, q.consideration, q.numberOfOrders])).toEqual([
      [1, 30.3, 1],
      [2, 30.3, 1],
      [3, -10.1, 0],
      [4, 0, 0],
    ]);
    expect(alpha.quarters[0]).toMatchObject({
      commissions: 3.21,
      taxes: 0.2,
      fees: 0,
      netConsideration: 26.89,
    });
    expect(alpha.quarters[1]).toMatchObject({ fees: 1.61, netConsideration: 28.69 });
    expect(alpha.quarters[2]).toMatchObject({ sales: 0, refunds: -10.1, commissions: -1.19 });
    const c = (n: number) => cents(n.toFixed(2));
    const sum = (f: 'consideration' | 'netConsideration' | 'commissions') =>
      Number(fmt(alpha.quarters.reduce((n, q) => n + c(q[f]), 0n)));
    expect(alpha.totals).toMatchObject({
      consideration: sum('consideration'),
      netConsideration: sum('netConsideration'),
      commissions: sum('commissions'),
      numberOfOrders: 2,
    });
    expect(bravo.quarters[3]).toMatchObject({ consideration: 5, numberOfOrders: 1 });
  });

  it('shows the identity through the port in full (tax id, date of birth); no profile → incomplete', async () => {
    const { vendors, identities, service, row } = setup();
    const [a, b] = vendors.add(vendor('alpha'), vendor('bravo'));
    row(a, 1, '2025-02-01T00:00:00.000Z', 1);
    row(b, 2, '2025-02-01T00:00:00.000Z', 1);
    identities.known.set(String(a._id), {
      identity: {
        legalName: 'Alpha GmbH',
        entityType: 'individual',
        address: {
          line1: 'Hauptstr. 1',
          line2: null,
          city: 'Berlin',
          postalCode: '10115',
          region: null,
          country: 'DE',
        },
        vatId: 'DE123456789',
        taxId: '12345678901',
        taxIdCountry: 'DE',
        dateOfBirth: '1980-05-17',
        businessRegistrationNumber: null,
      },
      complete: true,
      missing: [],
    });
    const report = await service.report(SHOP, 2025);
    expect(identities.asked).toHaveLength(1);
    expect(identities.asked[0].sort()).toEqual([String(a._id), String(b._id)].sort());
    expect(report.vendors[0]).toMatchObject({
      complete: true,
      missing: [],
      identity: {
        legalName: 'Alpha GmbH',
        entityType: 'individual',
        vatId: 'DE123456789',
        taxId: '12345678901',
        taxIdCountry: 'DE',
        dateOfBirth: '1980-05-17',
        businessRegistrationNumber: null,
        address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', region: null },
      },
    });
    expect(report.vendors[1]).toMatchObject({
      complete: false,
      missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
      identity: { legalName: null, taxId: null, dateOfBirth: null, address: null },
    });
  });

  it('records each export: year, format and vendor rows, never an identity value', async () => {
    const { vendors, identities, audit, service, row } = setup();
    const [a, b] = vendors.add(vendor('alpha'), vendor('bravo'));
    row(a, 1, '2025-02-01T00:00:00.000Z', 1);
    row(b, 2, '2025-05-01T00:00:00.000Z', 2);
    identities.known.set(String(a._id), {
      identity: { ...noProfile().identity, taxId: 'TIN-SECRET-1', dateOfBirth: '1971-01-02' },
      complete: false,
      missing: ['legalName'],
    });
    await service.report(SHOP, 2025);
    await service.reportCsv(SHOP, 2025);
    await service.report(SHOP, 2023);
    expect(audit.calls.map(([scope, action, resource, after]) => [scope, action, resource, after])).toEqual([
      [
        SHOP,
        'shop.seller_tax_report.export',
        { type: 'shop', id: SHOP.shopId },
        { year: 2025, format: 'json', rowCount: 2 },
      ],
      [
        SHOP,
        'shop.seller_tax_report.export',
        { type: 'shop', id: SHOP.shopId },
        { year: 2025, format: 'csv', rowCount: 2 },
      ],
      [
        SHOP,
        'shop.seller_tax_report.export',
        { type: 'shop', id: SHOP.shopId },
        { year: 2023, format: 'json', rowCount: 0 },
      ],
    ]);
    const trail = JSON.stringify(audit.calls);
    expect(trail).not.toContain('TIN-SECRET-1');
    expect(trail).not.toContain('1971-01-02');
  });

  it('a year without rows: no vendor, no identity read', async () => {
    const { identities, service } = setup();
    expect(await service.report(SHOP, 2025)).toEqual({ year: 2025, vendors: [] });
    expect(identities.asked).toEqual([]);
  });

  it('the CSV holds the JSON: per vendor Q1–Q4 then the year, every figure equal', async () => {
    const { vendors, service, row } = setup();
    const [a] = vendors.add(vendor('=alpha'));
    row(a, 1, '2025-01-05T00:00:00.000Z', 12.34, { commission: 1.23 });
    row(a, 2, '2025-12-05T00:00:00.000Z', 0.01);
    const json = await service.report(SHOP, 2025);
    const { stream, filename } = await service.reportCsv(SHOP, 2025);
    expect(filename).toBe('seller-tax-2025.csv');
    const { rows } = csvObjects(await text(stream));
    expect(rows.map((r) => r.period)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'year']);
    const v = json.vendors[0];
    [...v.quarters, v.totals].forEach((q, i) => {
      expect(rows[i]).toMatchObject({
        year: '2025',
        vendorId: v.vendorId,
        vendorName: "'=alpha",
        complete: 'false',
        missing: 'legalName;entityType;address;taxId;taxIdCountry',
        consideration: q.consideration.toFixed(2),
        numberOfOrders: String(q.numberOfOrders),
        commissions: q.commissions.toFixed(2),
        netConsideration: q.netConsideration.toFixed(2),
      });
    });
    expect(rows[4]).toMatchObject({ consideration: '12.35', numberOfOrders: '2', netConsideration: '11.12' });
  });
});
