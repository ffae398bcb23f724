import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { lastFour } from '../common/legal/identifiers';
import { LegalAddress, legalAddressOf } from '../common/legal/legal-address.dto';
import { DataCipher, SecretPurpose } from '../common/secrets/data-cipher';
import type { ShopScope } from '../common/tenancy';
import { VendorsRepository } from '../vendors/vendors.repository';
import { TaxProfileDto, UpdateTaxProfileDto } from './dto/tax-profile.dto';
import { taxProfileAuditView, toTaxProfileResponse } from './tax-profile.mapper';
import { TaxProfileCompleteness } from './tax-profile-completeness';
import { taxProfileChangeProblems } from './tax-profile-rules';
import { ConsentActor, EntityType, SelfBillingConsent, VendorTaxProfile } from './tax-profile.schema';
import { TaxProfilesRepository } from './tax-profiles.repository';

/** The vendor as the recipient of a document or the subject of the tax report, sealed values opened. */
export interface VendorTaxParty {
  vendorId: string;
  legalName: string | null;
  entityType: EntityType | null;
  address: LegalAddress | null;
  vatId: string | null;
  taxId: string | null;
  taxIdCountry: string | null;
  dateOfBirth: string | null;
  businessRegistrationNumber: string | null;
  /** Given and not withdrawn since (the shop's `selfBilling` decides whether it is used). */
  selfBillingConsent: boolean;
  completeness: TaxProfileCompleteness;
}

/** What binds a vendor's sealed values (associated data): its shop and itself. */
export const sealedFor = (scope: ShopScope, vendorId: string) => `${scope.shopId}:${vendorId}`;

/**
 * Vendor tax profiles (DESIGN §14): set by the shop (v1, V2 with a merchant token too) or by the
 * vendor itself (`/vendors/me/tax-profile`). The tax id and the date of birth are sealed at rest and
 * never answered, logged, audited or put in events in clear; reads show `taxIdProvided`,
 * `taxIdLast4` and `dateOfBirthProvided`. No event is emitted for a profile change: its only
 * public content would be identity data.
 */
@Injectable()
export class TaxProfilesService {
  constructor(
    private readonly profiles: TaxProfilesRepository,
    private readonly vendors: VendorsRepository,
    private readonly cipher: DataCipher,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async get(scope: ShopScope, vendorId: string): Promise<TaxProfileDto> {
    const id = await this.vendor(scope, vendorId);
    return toTaxProfileResponse(String(id), await this.profiles.findForVendor(scope, id));
  }

  /** For document issuing and the tax report: the profile with its sealed values opened. */
  async party(scope: ShopScope, vendorId: string): Promise<VendorTaxParty> {
    const id = await this.vendor(scope, vendorId);
    return this.toParty(scope, String(id), await this.profiles.findForVendor(scope, id));
  }

  /**
   * Many vendors' parties in one read (the seller tax report): vendor id → its party; a vendor without
   * a profile gets the empty one (every required field missing). The ids are the caller's (vendors
   * its own shop-scoped rows name), so no vendor lookup; an id that is no ObjectId is left out.
   */
  async parties(scope: ShopScope, vendorIds: string[]): Promise<Map<string, VendorTaxParty>> {
    const ids = [...new Set(vendorIds)].filter((id) => Types.ObjectId.isValid(id) && id.length === 24);
    if (ids.length === 0) return new Map();
    const found = await this.profiles.findForVendors(
      scope,
      ids.map((id) => new Types.ObjectId(id)),
    );
    const byVendor = new Map(found.map((p) => [String(p.vendorId), p]));
    return new Map(ids.map((id) => [id, this.toParty(scope, id, byVendor.get(id) ?? null)]));
  }

  private toParty(scope: ShopScope, vendorId: string, p: VendorTaxProfile | null): VendorTaxParty {
    const r = toTaxProfileResponse(vendorId, p);
    return {
      vendorId: r.vendorId,
      legalName: r.legalName,
      entityType: r.entityType,
      address: r.address,
      vatId: r.vatId,
      taxId: this.open(scope, 'vendor-tax-id', vendorId, p?.taxIdEnc ?? null),
      taxIdCountry: r.taxIdCountry,
      dateOfBirth: this.open(scope, 'vendor-date-of-birth', vendorId, p?.dateOfBirthEnc ?? null),
      businessRegistrationNumber: r.businessRegistrationNumber,
      selfBillingConsent: r.selfBillingConsent.given,
      completeness: r.completeness,
    };
  }

  async update(
    scope: ShopScope,
    vendorId: string,
    body: UpdateTaxProfileDto,
    actor: ConsentActor,
  ): Promise<TaxProfileDto> {
    const id = await this.vendor(scope, vendorId);
    const vid = String(id);
    const current = await this.profiles.findForVendor(scope, id);
    const now = this.clock.now();
    const problems = taxProfileChangeProblems(current?.entityType ?? null, body, now);
    if (Object.keys(problems).length) {
      throw new ValidationError(Object.values(problems).flat().join('; '), { fields: problems });
    }

    const set: Record<string, unknown> = {};
    const expect: Record<string, unknown> = {};
    const text = (v: string | null) => (v === null ? null : v.trim());
    if (body.legalName !== undefined) set.legalName = text(body.legalName);
    if (body.entityType !== undefined) set.entityType = body.entityType;
    if (body.address !== undefined) set.address = body.address && legalAddressOf(body.address);
    if (body.vatId !== undefined) set.vatId = text(body.vatId);
    if (body.taxIdCountry !== undefined) set.taxIdCountry = body.taxIdCountry;
    if (body.businessRegistrationNumber !== undefined)
      set.businessRegistrationNumber = text(body.businessRegistrationNumber);

    const wasTaxId = this.open(scope, 'vendor-tax-id', vid, current?.taxIdEnc ?? null);
    const taxId = body.taxId === undefined ? wasTaxId : text(body.taxId);
    if (taxId !== wasTaxId) {
      set.taxIdEnc = taxId === null ? null : this.cipher.seal('vendor-tax-id', sealedFor(scope, vid), taxId);
      set.taxIdLast4 = lastFour(taxId);
    }
    const wasDob = this.open(scope, 'vendor-date-of-birth', vid, current?.dateOfBirthEnc ?? null);
    // A business has no date of birth: becoming one drops the individual's (data kept no longer than needed).
    const becomesBusiness = body.entityType === 'business';
    const dob = body.dateOfBirth !== undefined ? body.dateOfBirth : becomesBusiness ? null : wasDob;
    if (dob !== wasDob) {
      set.dateOfBirthEnc =
        dob === null ? null : this.cipher.seal('vendor-date-of-birth', sealedFor(scope, vid), dob);
    }

    const wasGiven = current?.selfBillingConsent?.given ?? false;
    if (body.selfBillingConsent !== undefined && body.selfBillingConsent !== wasGiven) {
      const consent: SelfBillingConsent = { given: body.selfBillingConsent, at: now, by: { ...actor } };
      set.selfBillingConsent = consent;
      // Decided on what was read: a concurrent change of the consent makes this write a 409.
      expect['selfBillingConsent.given'] = current?.selfBillingConsent?.given ?? null;
    }
    if (Object.keys(set).length === 0) return toTaxProfileResponse(vid, current);

    const after = { ...(current ?? {}), ...set } as VendorTaxProfile;
    const beforeView = taxProfileAuditView(current, { taxId: wasTaxId, dateOfBirth: wasDob });
    const afterView = taxProfileAuditView(after, { taxId, dateOfBirth: dob });
    // A new value behind the same mask still is a change the trail must show (without the value).
    const replaced: Record<string, boolean> = {};
    if (taxId !== wasTaxId && beforeView.taxId === afterView.taxId) replaced.taxIdReplaced = true;
    if (dob !== wasDob && beforeView.dateOfBirth === afterView.dateOfBirth)
      replaced.dateOfBirthReplaced = true;
    const stamp = this.audit.begin();
    const event = current
      ? this.audit.changed(
          scope,
          stamp,
          'vendor.tax_profile.update',
          { type: 'vendor', id: id },
          beforeView,
          afterView,
          Object.keys(replaced).length ? { after: replaced } : undefined,
        )
      : this.audit.created(scope, stamp, 'vendor.tax_profile.update', { type: 'vendor', id: id }, afterView);
    const saved = await this.profiles.set(scope, id, set, expect, stamp, event);
    if (!saved) throw new ConflictError('The tax profile changed meanwhile; read it again and retry');
    await this.audit.commit(scope, this.profiles.outbox, stamp, [event], [saved._id]);
    return toTaxProfileResponse(vid, saved);
  }

  private open(
    scope: ShopScope,
    purpose: SecretPurpose,
    vendorId: string,
    sealed: string | null,
  ): string | null {
    if (sealed === null) return null;
    const plain = this.cipher.open(purpose, sealedFor(scope, vendorId), sealed);
    // Sealed under a key no longer configured (dropped before secrets:rotate ran): never guess.
    if (plain === null) throw new Error(`A vendor ${purpose} opens under no configured DATA_ENCRYPTION_KEY`);
    return plain;
  }

  private async vendor(scope: ShopScope, vendorId: string): Promise<Types.ObjectId> {
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    return vendor._id;
  }
}
