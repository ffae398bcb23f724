import { Types } from 'mongoose';
import { asReal, inScope, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import type { AuditTrail } from '../audit/audit-trail.service';
import type { Clock } from '../common/clock/clock';
import { DataCipher } from '../common/secrets/data-cipher';
import type { ShopScope } from '../common/tenancy';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { VendorTaxProfile } from './tax-profile.schema';
import type { TaxProfilesRepository } from './tax-profiles.repository';
import { sealedFor, TaxProfilesService } from './tax-profiles.service';

const cipher = new DataCipher(
  { encryptionKey: '3'.repeat(64), previousEncryptionKey: undefined },
  { jwtSecret: 'x'.repeat(40) },
  { nodeEnv: 'production' },
);

/** Profiles in memory; counts the batch reads (the report must make one, never one per vendor). */
class FakeProfiles implements Pick<TaxProfilesRepository, 'findForVendors' | 'findForVendor'> {
  readonly docs: VendorTaxProfile[] = [];
  batchReads: Types.ObjectId[][] = [];
  singleReads = 0;

  async findForVendors(scope: ShopScope, ids: Types.ObjectId[]) {
    this.batchReads.push(ids);
    const wanted = new Set(ids.map(String));
    return inScope(scope, this.docs).filter((d) => wanted.has(String(d.vendorId)));
  }

  async findForVendor(scope: ShopScope, id: Types.ObjectId) {
    this.singleReads++;
    return inScope(scope, this.docs).find((d) => d.vendorId.equals(id)) ?? null;
  }

  add(scope: ShopScope, fields: Partial<VendorTaxProfile> & { taxId?: string; dob?: string }) {
    const vendorId = new Types.ObjectId();
    const { taxId, dob, ...rest } = fields;
    const bind = sealedFor(scope, String(vendorId));
    this.docs.push({
      _id: vendorId,
      shopId: new Types.ObjectId(scope.shopId),
      vendorId,
      legalName: null,
      entityType: null,
      address: null,
      vatId: null,
      taxIdEnc: taxId ? cipher.seal('vendor-tax-id', bind, taxId) : null,
      taxIdLast4: taxId ? taxId.slice(-4) : null,
      taxIdCountry: null,
      dateOfBirthEnc: dob ? cipher.seal('vendor-date-of-birth', bind, dob) : null,
      businessRegistrationNumber: null,
      selfBillingConsent: null,
      createdAt: new Date(),
      updatedAt: new Date(),
      ...rest,
    });
    return String(vendorId);
  }
}

function setup() {
  const profiles = new FakeProfiles();
  const service = new TaxProfilesService(
    asReal<TaxProfilesRepository>(profiles),
    asReal<VendorsRepository>({}),
    cipher,
    asReal<AuditTrail>({}),
    asReal<Clock>({}),
  );
  return { profiles, service };
}

const ADDRESS = {
  line1: '1 Rue X',
  line2: null,
  city: 'Paris',
  postalCode: '75001',
  region: null,
  country: 'FR',
};

describe('TaxProfilesService.parties (the seller tax report read)', () => {
  it('opens every vendor’s sealed tax id and date of birth from one read, with completeness', async () => {
    const { profiles, service } = setup();
    const person = profiles.add(SHOP, {
      legalName: 'Jeanne Martin',
      entityType: 'individual',
      address: ADDRESS,
      taxId: '1 80 05 75 123 456',
      taxIdCountry: 'FR',
      dob: '1980-05-17',
    });
    const firm = profiles.add(SHOP, {
      legalName: 'Acme SARL',
      entityType: 'business',
      address: ADDRESS,
      vatId: 'FR12345678901',
      taxId: '123456789',
      taxIdCountry: 'FR',
    });
    const none = new Types.ObjectId().toHexString();
    const parties = await service.parties(SHOP, [person, firm, none, person]);

    expect(profiles.batchReads).toHaveLength(1);
    expect(profiles.batchReads[0].map(String).sort()).toEqual([person, firm, none].sort());
    expect(profiles.singleReads).toBe(0);
    expect(parties.get(person)).toMatchObject({
      legalName: 'Jeanne Martin',
      taxId: '1 80 05 75 123 456',
      dateOfBirth: '1980-05-17',
      completeness: { complete: true, missing: [] },
    });
    expect(parties.get(firm)).toMatchObject({
      vatId: 'FR12345678901',
      taxId: '123456789',
      dateOfBirth: null,
      completeness: { complete: false, missing: ['businessRegistrationNumber'] },
    });
    expect(parties.get(none)).toMatchObject({
      legalName: null,
      taxId: null,
      completeness: {
        complete: false,
        missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
      },
    });
  });

  it('another shop’s profile is not read (the vendor reads as having none); a garbled id is left out', async () => {
    const { profiles, service } = setup();
    const theirs = profiles.add(OTHER_SHOP, { legalName: 'Theirs', taxId: '999999999' });
    const parties = await service.parties(SHOP, [theirs, 'not-an-id']);
    expect([...parties.keys()]).toEqual([theirs]);
    expect(parties.get(theirs)).toMatchObject({ legalName: null, taxId: null });
  });

  it('no vendors: no read at all', async () => {
    const { profiles, service } = setup();
    expect((await service.parties(SHOP, [])).size).toBe(0);
    expect(profiles.batchReads).toEqual([]);
  });
});
