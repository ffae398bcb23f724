import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';

/** A seller's postal address, as the vendor tax profile holds it (the vendor address's fields). */
export interface SellerAddress {
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
}

/**
 * What the seller tax report needs of a vendor's tax profile (DESIGN §14). `taxId` and
 * `dateOfBirth` arrive as stored (unsealed); the report masks the one and leaves the other out.
 */
export interface SellerIdentity {
  legalName: string | null;
  entityType: 'individual' | 'business' | null;
  address: SellerAddress | null;
  vatId: string | null;
  taxId: string | null;
  taxIdCountry: string | null;
  dateOfBirth: string | null;
  businessRegistrationNumber: string | null;
}

/** A vendor's identity with the profile's completeness verdict (the tax profile's own function). */
export interface SellerIdentityStatus {
  identity: SellerIdentity;
  complete: boolean;
  /** The fields a complete profile still needs, e.g. `['taxId', 'dateOfBirth']`. */
  missing: string[];
}

/**
 * The port the seller tax report reads identities through: the vendor tax profiles
 * (`vendor_tax_profiles`, another feature) bind a real implementation; a vendor without a profile
 * is answered incomplete. One call for every vendor of the report (one read, not one per vendor).
 */
export abstract class SellerIdentities {
  abstract read(scope: ShopScope, vendorIds: string[]): Promise<Map<string, SellerIdentityStatus>>;
}

/** The fields a profile that holds nothing misses (a business needs no date of birth). */
export const NO_PROFILE_MISSING = ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'] as const;

export const EMPTY_IDENTITY: SellerIdentity = {
  legalName: null,
  entityType: null,
  address: null,
  vatId: null,
  taxId: null,
  taxIdCountry: null,
  dateOfBirth: null,
  businessRegistrationNumber: null,
};

/** A vendor with no tax profile: nothing known, incomplete. */
export function noProfile(): SellerIdentityStatus {
  return { identity: { ...EMPTY_IDENTITY }, complete: false, missing: [...NO_PROFILE_MISSING] };
}

/**
 * Until vendor tax profiles exist: every vendor answered as having none (incomplete, the required
 * fields missing). Replaced by the tax profiles' implementation where they are wired.
 */
@Injectable()
export class NoSellerIdentities extends SellerIdentities {
  read(_scope: ShopScope, vendorIds: string[]): Promise<Map<string, SellerIdentityStatus>> {
    return Promise.resolve(new Map(vendorIds.map((id) => [id, noProfile()])));
  }
}
