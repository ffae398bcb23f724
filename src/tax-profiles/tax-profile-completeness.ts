/**
 * Whether a vendor's tax profile holds what documents and the seller tax report need (DESIGN §14):
 * legalName, entityType, address, taxId and taxIdCountry always; an individual's dateOfBirth; a
 * business's businessRegistrationNumber. Pure: the tax report, document issuing and payout
 * eligibility call it on the read model (or anything with these facts).
 */
export const TAX_PROFILE_FIELDS = [
  'legalName',
  'entityType',
  'address',
  'taxId',
  'taxIdCountry',
  'dateOfBirth',
  'businessRegistrationNumber',
] as const;
export type TaxProfileField = (typeof TAX_PROFILE_FIELDS)[number];

/** The facts completeness reads: sealed fields as "provided" flags, never their values. */
export interface TaxProfileFacts {
  legalName: string | null;
  entityType: 'individual' | 'business' | null;
  address: object | null;
  taxIdProvided: boolean;
  taxIdCountry: string | null;
  dateOfBirthProvided: boolean;
  businessRegistrationNumber: string | null;
}

export interface TaxProfileCompleteness {
  complete: boolean;
  /** The missing fields, in TAX_PROFILE_FIELDS order. */
  missing: TaxProfileField[];
}

/** A profile's completeness; null (no profile yet) misses every field an unknown entity needs. */
export function taxProfileCompleteness(profile: TaxProfileFacts | null): TaxProfileCompleteness {
  const p = profile;
  const has = (v: string | null | undefined) => typeof v === 'string' && v.trim().length > 0;
  const present: Record<TaxProfileField, boolean> = {
    legalName: has(p?.legalName),
    entityType: p?.entityType === 'individual' || p?.entityType === 'business',
    address: !!p?.address,
    taxId: !!p?.taxIdProvided,
    taxIdCountry: has(p?.taxIdCountry),
    // Which of the two applies depends on the entity type; without one, neither is asked yet.
    dateOfBirth: p?.entityType !== 'individual' || !!p.dateOfBirthProvided,
    businessRegistrationNumber: p?.entityType !== 'business' || has(p.businessRegistrationNumber),
  };
  const missing = TAX_PROFILE_FIELDS.filter((f) => !present[f]);
  return { complete: missing.length === 0, missing };
}
