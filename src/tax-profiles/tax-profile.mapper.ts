import { maskedTail, SEALED } from '../common/legal/identifiers';
import type { TaxProfileDto } from './dto/tax-profile.dto';
import { taxProfileCompleteness } from './tax-profile-completeness';
import type { VendorTaxProfile } from './tax-profile.schema';

/** The read model: sealed fields as flags (and the tax id's last 4), with its completeness. */
export function toTaxProfileResponse(vendorId: string, p: VendorTaxProfile | null): TaxProfileDto {
  const facts = {
    legalName: p?.legalName ?? null,
    entityType: p?.entityType ?? null,
    address: p?.address ?? null,
    vatId: p?.vatId ?? null,
    taxIdProvided: !!p?.taxIdEnc,
    taxIdLast4: p?.taxIdEnc ? (p.taxIdLast4 ?? null) : null,
    taxIdCountry: p?.taxIdCountry ?? null,
    dateOfBirthProvided: !!p?.dateOfBirthEnc,
    businessRegistrationNumber: p?.businessRegistrationNumber ?? null,
  };
  const consent = p?.selfBillingConsent ?? null;
  return {
    vendorId,
    ...facts,
    selfBillingConsent: consent
      ? {
          given: consent.given,
          at: new Date(consent.at).toISOString(),
          by: { kind: consent.by.kind, id: consent.by.id },
        }
      : { given: false, at: null, by: null },
    completeness: taxProfileCompleteness(facts),
    updatedAt: p?.updatedAt ? new Date(p.updatedAt).toISOString() : null,
  };
}

/**
 * What the audit trail keeps of a profile: every field, the tax id as a masked tail and the date of
 * birth as `[sealed]` (their values never enter the trail). `taxId` / `dateOfBirth` are the clear
 * values the service holds at that moment (null: none).
 */
export function taxProfileAuditView(
  p: VendorTaxProfile | null,
  clear: { taxId: string | null; dateOfBirth: string | null },
): Record<string, unknown> {
  const r = toTaxProfileResponse('', p);
  return {
    legalName: r.legalName,
    entityType: r.entityType,
    address: r.address,
    vatId: r.vatId,
    taxId: clear.taxId === null ? null : (maskedTail(clear.taxId) ?? SEALED),
    taxIdCountry: r.taxIdCountry,
    dateOfBirth: clear.dateOfBirth === null ? null : SEALED,
    businessRegistrationNumber: r.businessRegistrationNumber,
    selfBillingConsent: r.selfBillingConsent,
  };
}
