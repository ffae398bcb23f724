import { Injectable } from '@nestjs/common';
import type { LegalAddress } from '../common/legal/legal-address.dto';
import type { ShopScope } from '../common/tenancy';
import { taxProfileCompleteness } from '../tax-profiles/tax-profile-completeness';
import { TaxProfilesService, type VendorTaxParty } from '../tax-profiles/tax-profiles.service';

/**
 * What the seller tax report gives of a vendor's tax profile (DESIGN §14, DAC7 Annex V section III
 * B): the identity an operator reports, the tax id and date of birth opened from their seals. The
 * report is the one place they are shown in clear (an operator-only route); they are never logged,
 * audited or put in events.
 */
export interface SellerIdentity {
  legalName: string | null;
  entityType: 'individual' | 'business' | null;
  address: LegalAddress | null;
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
 * The port the seller tax report reads identities through: one call for every vendor of the report
 * (one read, never one per vendor). Bound to the vendor tax profiles (TaxProfileSellerIdentities);
 * a port so the report's unit tests answer it from memory.
 */
export abstract class SellerIdentities {
  abstract read(scope: ShopScope, vendorIds: string[]): Promise<Map<string, SellerIdentityStatus>>;
}

/** A vendor with no tax profile: nothing known, incomplete (the tax profile's verdict on none). */
export function noProfile(): SellerIdentityStatus {
  const { complete, missing } = taxProfileCompleteness(null);
  return {
    identity: {
      legalName: null,
      entityType: null,
      address: null,
      vatId: null,
      taxId: null,
      taxIdCountry: null,
      dateOfBirth: null,
      businessRegistrationNumber: null,
    },
    complete,
    missing: [...missing],
  };
}

/** A party of the tax profiles as the report's identity. */
export function identityOf(p: VendorTaxParty): SellerIdentityStatus {
  return {
    identity: {
      legalName: p.legalName,
      entityType: p.entityType,
      address: p.address ? { ...p.address } : null,
      vatId: p.vatId,
      taxId: p.taxId,
      taxIdCountry: p.taxIdCountry,
      dateOfBirth: p.dateOfBirth,
      businessRegistrationNumber: p.businessRegistrationNumber,
    },
    complete: p.completeness.complete,
    missing: [...p.completeness.missing],
  };
}

/** The vendor tax profiles behind the port: one `$in` read of every vendor's profile. */
@Injectable()
export class TaxProfileSellerIdentities extends SellerIdentities {
  constructor(private readonly profiles: TaxProfilesService) {
    super();
  }

  async read(scope: ShopScope, vendorIds: string[]): Promise<Map<string, SellerIdentityStatus>> {
    const parties = await this.profiles.parties(scope, vendorIds);
    return new Map([...parties].map(([id, p]) => [id, identityOf(p)]));
  }
}
