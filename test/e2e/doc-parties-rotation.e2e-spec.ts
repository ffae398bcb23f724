import { randomBytes } from 'node:crypto';
import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { keyId } from '../../src/common/secrets/data-cipher';
import { shopScope } from '../../src/common/tenancy';
import { ShopLegalSecretsRotation } from '../../src/shops/shop-legal-secrets.service';
import { ShopLegalService } from '../../src/shops/shop-legal.service';
import { Shop } from '../../src/shops/shop.schema';
import { TaxProfileSecretsRotation } from '../../src/tax-profiles/tax-profile-secrets.service';
import { VendorTaxProfile } from '../../src/tax-profiles/tax-profile.schema';
import { TaxProfilesService } from '../../src/tax-profiles/tax-profiles.service';
import { startApp, TestApp } from '../support/app';
import { createVendor } from '../support/catalog';
import { createShop, TestShop } from '../support/factory';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const idOf = (key: string) => keyId(Buffer.from(key, 'hex'));

/**
 * DESIGN §14: the shop's tax id and the vendors' tax ids and dates of birth are sealed like secrets,
 * so `secrets:rotate` re-seals them too; after it, the new key alone opens them. Runs on a database
 * of its own (test/support/database-per-file.ts): the rotation reads every shop of it.
 */
describe('doc parties: sealed tax ids and key rotation (e2e)', () => {
  let t: TestApp | null = null;
  let shop: TestShop;
  let vendorId: string;

  const boot = async (current: string, previous?: string) => {
    await t?.close();
    process.env.DATA_ENCRYPTION_KEY = current;
    if (previous) process.env.DATA_ENCRYPTION_KEY_PREVIOUS = previous;
    else delete process.env.DATA_ENCRYPTION_KEY_PREVIOUS;
    t = await startApp();
    return t;
  };
  const sealedKeys = async () => {
    const legal = await t!.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .findOne({ _id: new Types.ObjectId(shop.shopId) })
      .lean<Shop>()
      .exec();
    const profile = await t!.app
      .get<Model<VendorTaxProfile>>(getModelToken(VendorTaxProfile.name))
      .findOne({ shopId: new Types.ObjectId(shop.shopId), vendorId: new Types.ObjectId(vendorId) })
      .lean<VendorTaxProfile>()
      .exec();
    return [legal!.legal!.taxIdEnc!, profile!.taxIdEnc!, profile!.dateOfBirthEnc!].map(
      (v) => v.split('.')[1],
    );
  };
  const opened = async () => {
    const scope = shopScope(shop.shopId);
    const party = await t!.app.get(TaxProfilesService).party(scope, vendorId);
    return {
      shopTaxId: (await t!.app.get(ShopLegalService).party(scope)).taxId,
      taxId: party.taxId,
      dateOfBirth: party.dateOfBirth,
    };
  };
  const CLEAR = { shopTaxId: 'DE-ROT-0000-1111', taxId: 'GB-ROT-2222-3333', dateOfBirth: '1970-05-04' };

  afterAll(async () => {
    await t?.app.get<Connection>(getConnectionToken()).dropDatabase();
    await t?.close();
    delete process.env.DATA_ENCRYPTION_KEY;
    delete process.env.DATA_ENCRYPTION_KEY_PREVIOUS;
  });

  it('seals under the current key; secrets:rotate re-seals under the new one, which alone then opens them', async () => {
    await boot(KEY_A);
    shop = await createShop(t!, 'rot-legal');
    vendorId = (await createVendor(t!, shop, 'rot vendor'))._id;
    expect(
      (await t!.api.put('/v1/shop/legal', { taxId: CLEAR.shopTaxId }, { token: shop.token })).status,
    ).toBe(200);
    const body = { entityType: 'individual', taxId: CLEAR.taxId, dateOfBirth: CLEAR.dateOfBirth };
    expect(
      (await t!.api.put(`/v1/vendors/${vendorId}/tax-profile`, body, { token: shop.token })).status,
    ).toBe(200);
    expect(await sealedKeys()).toEqual([idOf(KEY_A), idOf(KEY_A), idOf(KEY_A)]);

    await boot(KEY_B, KEY_A);
    expect(await opened()).toEqual(CLEAR); // opened with the previous key
    expect(await t!.app.get(ShopLegalSecretsRotation).rotate()).toMatchObject({
      resealed: 1,
      unreadable: 0,
      skipped: 0,
    });
    expect(await t!.app.get(TaxProfileSecretsRotation).rotate()).toMatchObject({
      resealed: 1,
      unreadable: 0,
      skipped: 0,
    });
    expect(await sealedKeys()).toEqual([idOf(KEY_B), idOf(KEY_B), idOf(KEY_B)]);
    expect(await t!.app.get(TaxProfileSecretsRotation).rotate()).toMatchObject({ resealed: 0, current: 2 });

    await boot(KEY_B); // the previous key dropped: everything still opens
    expect(await opened()).toEqual(CLEAR);
    const read = await t!.api.get(`/v1/vendors/${vendorId}/tax-profile`, { token: shop.token });
    expect(read.body).toMatchObject({ taxIdProvided: true, taxIdLast4: '3333', dateOfBirthProvided: true });
  });
});
