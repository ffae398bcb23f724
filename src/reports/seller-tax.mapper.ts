import type { VendorSummary } from '../vendors/vendors.repository';
import type { SellerIdentityDto, SellerTaxVendorDto } from './dto/seller-tax-report.dto';
import { type QuarterCents, QUARTERS, toFigures, totalCents } from './seller-tax-figures';
import type { SellerIdentity, SellerIdentityStatus } from './seller-identities';

const MASK = '••••';

/**
 * A tax id as the report shows it: `••••` and the last 4 of its characters (spaces removed), or
 * `••••` alone for an id shorter than 8 characters, where 4 would give most of it away.
 * Idempotent: a masked id masks to itself.
 */
export function maskTaxId(taxId: string | null | undefined): string | null {
  const id = (taxId ?? '').replace(/\s+/g, '');
  if (!id) return null;
  return id.length >= 8 ? `${MASK}${id.slice(-4)}` : MASK;
}

/** The identity as the report shows it: the tax id masked, the date of birth reduced to "on file". */
export function toIdentityDto(identity: SellerIdentity): SellerIdentityDto {
  return {
    legalName: identity.legalName,
    entityType: identity.entityType,
    address: identity.address ? { ...identity.address } : null,
    vatId: identity.vatId,
    taxId: maskTaxId(identity.taxId),
    taxIdCountry: identity.taxIdCountry,
    dateOfBirthOnFile: !!identity.dateOfBirth,
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
