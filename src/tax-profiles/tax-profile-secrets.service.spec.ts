import { Types } from 'mongoose';
import { asReal } from '../../test/fakes/fake';
import { FakeTaxProfileSecretsRepository } from '../../test/fakes/tax-profiles.fake';
import { DataCipher } from '../common/secrets/data-cipher';
import { TaxProfileSecretsRotation } from './tax-profile-secrets.service';
import type { TaxProfilesRepository } from './tax-profiles.repository';

const OLD = '1'.repeat(64);
const NEW = '2'.repeat(64);
const cipher = (current: string | undefined, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: 'production' },
  );

function profile(
  repo: FakeTaxProfileSecretsRepository,
  c: DataCipher,
  taxId: string | null,
  dob: string | null,
) {
  const shopId = new Types.ObjectId();
  const vendorId = new Types.ObjectId();
  const binding = `${shopId}:${vendorId}`;
  return repo.add({
    _id: vendorId,
    shopId,
    vendorId,
    taxIdEnc: taxId === null ? null : c.seal('vendor-tax-id', binding, taxId),
    dateOfBirthEnc: dob === null ? null : c.seal('vendor-date-of-birth', binding, dob),
  });
}

describe('TaxProfileSecretsRotation (secrets:rotate)', () => {
  it('re-seals tax ids and dates of birth under the current key, and a second run changes nothing', async () => {
    const repo = new FakeTaxProfileSecretsRepository();
    const old = cipher(OLD);
    const rows = Array.from({ length: 450 }, (_, i) =>
      profile(repo, old, i % 3 === 0 ? null : `TAX${i}000000`, i % 2 ? '1980-01-31' : null),
    );
    const empty = rows.filter((r) => !r.taxIdEnc && !r.dateOfBirthEnc).length;
    const values = rows.reduce((n, r) => n + (r.taxIdEnc ? 1 : 0) + (r.dateOfBirthEnc ? 1 : 0), 0);
    const service = new TaxProfileSecretsRotation(asReal<TaxProfilesRepository>(repo), cipher(NEW, OLD));

    expect(await service.rotate()).toEqual({
      documents: 450 - empty,
      resealed: 450 - empty,
      current: 0,
      unreadable: 0,
      skipped: 0,
    });
    const onlyNew = cipher(NEW);
    rows.forEach((r, i) => {
      const binding = `${r.shopId}:${r.vendorId}`;
      if (r.taxIdEnc) expect(onlyNew.open('vendor-tax-id', binding, r.taxIdEnc)).toBe(`TAX${i}000000`);
      if (r.dateOfBirthEnc)
        expect(onlyNew.open('vendor-date-of-birth', binding, r.dateOfBirthEnc)).toBe('1980-01-31');
      // bound to its vendor: the same value does not open for another vendor of the shop
      if (r.taxIdEnc) expect(onlyNew.open('vendor-tax-id', `${r.shopId}:${r.shopId}`, r.taxIdEnc)).toBeNull();
    });
    expect(await service.rotate()).toEqual({
      documents: 450 - empty,
      resealed: 0,
      current: values,
      unreadable: 0,
      skipped: 0,
    });
  });

  it('leaves values no key opens, and a profile changed during the run', async () => {
    const repo = new FakeTaxProfileSecretsRepository();
    const lost = profile(repo, cipher('3'.repeat(64)), 'LOST00000000', null);
    const busy = profile(repo, cipher(OLD), 'BUSY00000000', null);
    repo.beforeReplace = (row) => {
      if (row._id.equals(busy._id)) row.taxIdEnc = 'changed-through-the-api';
    };
    const service = new TaxProfileSecretsRotation(asReal<TaxProfilesRepository>(repo), cipher(NEW, OLD));
    const sealedLost = lost.taxIdEnc;
    expect(await service.rotate()).toEqual({
      documents: 2,
      resealed: 0,
      current: 0,
      unreadable: 1,
      skipped: 1,
    });
    expect(lost.taxIdEnc).toBe(sealedLost);
    expect(busy.taxIdEnc).toBe('changed-through-the-api');
  });
});
