import type { VendorSummary } from '../vendors/vendors.repository';
import type { SellerIdentityDto, SellerTaxVendorDto } from './dto/seller-tax-report.dto';
import { type QuarterCents, QUARTERS, toFigures, totalCents } from './seller-tax-figures';
import type { SellerIdentity, SellerIdentityStatus } from './seller-identities';

/**
 * The identity as the report shows it: every field in clear, the tax id and date of birth included —
 * what DAC7 asks the operator to report (the route is the shop's own, never a vendor's or merchant's).
 */
export function toIdentityDto(identity: SellerIdentity): SellerIdentityDto {
  return {
    legalName: identity.legalName,
    entityType: identity.entityType,
    address: identity.address ? { ...identity.address } : null,
    vatId: identity.vatId,
    taxId: identity.taxId,
    taxIdCountry: identity.taxIdCountry,
    dateOfBirth: identity.dateOfBirth,
    businessRegistrationNumber: identity.businessRegistrationNumber,
  };
}

/** One vendor of the report: its identity, its four quarters and the year. */
export function toSellerTaxVendor(
  vendorId: string,
  vendor: VendorSummary | undefined,
  status: SellerIdentityStatus,
  quarters: QuarterCents[],
): SellerTaxVendorDto {
  return {
    vendorId,
    vendorName: vendor?.vendorName ?? '',
    identity: toIdentityDto(status.identity),
    complete: status.complete,
    missing: [...status.missing],
    quarters: QUARTERS.map((quarter, i) => ({ quarter, ...toFigures(quarters[i]) })),
    totals: toFigures(totalCents(quarters)),
  };
}
