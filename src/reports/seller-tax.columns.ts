import { type CsvColumn, describeColumns } from '../common/csv';
import type {
  SellerTaxFiguresDto,
  SellerTaxReportDto,
  SellerTaxVendorDto,
} from './dto/seller-tax-report.dto';

/** A line of the CSV: one vendor and one period (`Q1`–`Q4`, then `year` with the totals). */
export interface SellerTaxCsvLine {
  year: number;
  vendor: SellerTaxVendorDto;
  period: 'Q1' | 'Q2' | 'Q3' | 'Q4' | 'year';
  figures: SellerTaxFiguresDto;
}

const FIGURE_COLUMNS: Array<[keyof SellerTaxFiguresDto, string]> = [
  ['consideration', 'sales + refunds'],
  ['numberOfOrders', 'distinct orders with a payable sale row'],
  ['sales', 'Σ salesAfterDiscount of payable sale rows'],
  ['refunds', 'Σ salesAfterDiscount of refund rows (≤ 0)'],
  ['commissions', 'Σ commission + taxOnCommissions'],
  ['fees', 'Σ totalGlobalDeductions + deduction'],
  ['taxes', 'Σ tcs'],
  ['netConsideration', 'consideration − commissions − fees − taxes'],
];

const address =
  (f: 'line1' | 'line2' | 'city' | 'postalCode' | 'region' | 'country') => (r: SellerTaxCsvLine) =>
    r.vendor.identity.address?.[f] ?? null;

export const SELLER_TAX_CSV_COLUMNS: ReadonlyArray<CsvColumn<SellerTaxCsvLine>> = [
  { header: 'year', kind: 'integer', value: (r) => r.year, description: 'year reported' },
  {
    header: 'period',
    kind: 'text',
    value: (r) => r.period,
    description: 'Q1, Q2, Q3, Q4, or year (the totals)',
  },
  { header: 'vendorId', kind: 'text', value: (r) => r.vendor.vendorId, description: 'vendor id' },
  { header: 'vendorName', kind: 'text', value: (r) => r.vendor.vendorName, description: 'vendor name' },
  { header: 'complete', kind: 'text', value: (r) => String(r.vendor.complete), description: 'true or false' },
  {
    header: 'missing',
    kind: 'text',
    value: (r) => r.vendor.missing.join(';'),
    description: 'tax profile fields still needed, separated by `;`',
  },
  { header: 'legalName', kind: 'text', value: (r) => r.vendor.identity.legalName, description: 'legal name' },
  {
    header: 'entityType',
    kind: 'text',
    value: (r) => r.vendor.identity.entityType,
    description: 'individual or business',
  },
  { header: 'addressLine1', kind: 'text', value: address('line1'), description: 'address line 1' },
  { header: 'addressLine2', kind: 'text', value: address('line2'), description: 'address line 2' },
  { header: 'city', kind: 'text', value: address('city'), description: 'city' },
  { header: 'postalCode', kind: 'text', value: address('postalCode'), description: 'postal code' },
  { header: 'region', kind: 'text', value: address('region'), description: 'state or region' },
  { header: 'country', kind: 'text', value: address('country'), description: 'country (ISO 3166-1 alpha-2)' },
  { header: 'vatId', kind: 'text', value: (r) => r.vendor.identity.vatId, description: 'VAT id' },
  {
    header: 'taxId',
    kind: 'text',
    value: (r) => r.vendor.identity.taxId,
    description: 'tax id (TIN), in full',
  },
  {
    header: 'taxIdCountry',
    kind: 'text',
    value: (r) => r.vendor.identity.taxIdCountry,
    description: 'tax id country',
  },
  {
    header: 'dateOfBirth',
    kind: 'text',
    value: (r) => r.vendor.identity.dateOfBirth,
    description: 'date of birth (YYYY-MM-DD) of an individual, empty for a business',
  },
  {
    header: 'businessRegistrationNumber',
    kind: 'text',
    value: (r) => r.vendor.identity.businessRegistrationNumber,
    description: 'business registration number',
  },
  ...FIGURE_COLUMNS.map(([f, description]): CsvColumn<SellerTaxCsvLine> => ({
    header: f,
    kind: f === 'numberOfOrders' ? 'integer' : 'amount',
    value: (r) => r.figures[f],
    description,
  })),
];

/** The report as CSV lines: per vendor (in the report's order) its quarters, then its year. */
export function* sellerTaxCsvLines(report: SellerTaxReportDto): Generator<SellerTaxCsvLine> {
  for (const vendor of report.vendors) {
    for (const q of vendor.quarters) {
      const { quarter, ...figures } = q;
      yield { year: report.year, vendor, period: `Q${quarter}` as const, figures };
    }
    yield { year: report.year, vendor, period: 'year', figures: vendor.totals };
  }
}

export const SELLER_TAX_CSV_DOC = {
  description: 'The seller tax report of the year.',
  columns: describeColumns(SELLER_TAX_CSV_COLUMNS),
  example:
    'year,period,vendorId,vendorName,complete,missing,legalName,entityType,addressLine1,addressLine2,city,' +
    'postalCode,region,country,vatId,taxId,taxIdCountry,dateOfBirth,businessRegistrationNumber,consideration,' +
    'numberOfOrders,sales,refunds,commissions,fees,taxes,netConsideration\r\n' +
    '2026,Q1,6740c1a2e4b0f15b3c9d0a21,acme apparel,true,,Acme Apparel GmbH,business,Hauptstr. 1,,Berlin,' +
    '10115,,DE,DE123456789,12/345/67890,DE,,HRB 123456,1180.50,23,1250.00,-69.50,141.66,23.61,11.81,1003.42\r\n',
};
