import { Types } from 'mongoose';
import { fakeAuditTrail } from '../../test/fakes/audit.fake';
import { asReal, FakeShops, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { FakeVendorsRepository, FakeVendorUsers, vendor } from '../../test/fakes/vendors.fake';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import type { AuthConfig } from '../config/configuration';
import type { ShopsService } from '../shops/shops.service';
import type { UserDto } from '../users/dto/user-response.dto';
import type { UsersService } from '../users/users.service';
import type { VendorApiKeysService } from '../vendor-keys/vendor-api-keys.service';
import { VendorUsersService } from './vendor-users.service';
import type { VendorsRepository } from './vendors.repository';
import { VendorsService } from './vendors.service';

describe('VendorsService and VendorUsersService (repositories faked)', () => {
  let vendors: FakeVendorsRepository;
  let shops: FakeShops;
  let users: FakeVendorUsers;
  let service: VendorsService;
  let vendorUsers: VendorUsersService;
  let keyFlags: Array<{ vendorId: string; active: boolean }>;

  beforeEach(() => {
    vendors = new FakeVendorsRepository();
    shops = new FakeShops();
    users = new FakeVendorUsers();
    const auth = { cursorKey: Buffer.alloc(32, 7) } as AuthConfig;
    service = new VendorsService(
      asReal<VendorsRepository>(vendors),
      asReal<ShopsService>(shops),
      fakeAuditTrail(new FixedClock()),
      auth,
    );
    keyFlags = [];
    const keys: Pick<VendorApiKeysService, 'setVendorActive'> = {
      setVendorActive: async (_scope, vendorId, active) => {
        keyFlags.push({ vendorId, active });
      },
    };
    vendorUsers = new VendorUsersService(
      service,
      asReal<UsersService>(users),
      asReal<VendorApiKeysService>(keys),
    );
  });

  it('creates an active vendor; a taken name is a 409 naming it', async () => {
    const created = await service.create(SHOP, {
      vendorName: 'acme',
      commissionType: 'percentage',
      commissionAmount: 12,
    });
    expect(created).toMatchObject({ vendorName: 'acme', active: true, shopId: SHOP.shopId });
    const again = service.create(SHOP, { vendorName: 'acme', commissionType: 'flat', commissionAmount: 1 });
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    await expect(again).rejects.toMatchObject({ details: { vendorName: 'acme' } });
  });

  it('checks the commission rule on the result of a partial change', async () => {
    const [acme] = vendors.add(vendor('acme', { commissionType: 'flat', commissionAmount: 250 }));
    await expect(
      service.update(SHOP, String(acme._id), { commissionType: 'percentage' }),
    ).rejects.toBeInstanceOf(ValidationError);
    const updated = await service.update(SHOP, String(acme._id), {
      commissionType: 'percentage',
      commissionAmount: 20,
    });
    expect(updated).toMatchObject({ commissionType: 'percentage', commissionAmount: 20 });
  });

  it('a rename onto another vendor’s name is a 409; another shop’s vendor is a 404', async () => {
    const [acme, globex] = vendors.add(vendor('acme'), vendor('globex'));
    await expect(service.update(SHOP, String(globex._id), { vendorName: 'acme' })).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(service.get(OTHER_SHOP, String(acme._id))).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.get(SHOP, 'not-an-id')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('accepts only the shop’s profile fields and keeps entries of other fields', async () => {
    const [acme] = vendors.add(vendor('acme'));
    shops.profileFields = ['taxId', 'tier'];
    await service.setProfile(SHOP, String(acme._id), [{ field: 'taxId', value: 'GB1' }]);
    const res = await service.setProfile(SHOP, String(acme._id), [{ field: 'tier', value: 2 }]);
    expect(res.profile).toEqual([
      { field: 'taxId', value: 'GB1' },
      { field: 'tier', value: 2 },
    ]);
    await expect(
      service.setProfile(SHOP, String(acme._id), [{ field: 'nope', value: 1 }]),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('answers the users port: the vendor with the policy’s active flag, and names by id', async () => {
    const [acme, gone] = vendors.add(vendor('acme'), vendor('gone', { active: false }));
    expect(await service.findVendor(SHOP, String(gone._id))).toEqual({
      _id: gone._id,
      vendorName: 'gone',
      active: false,
    });
    expect(await service.findVendor(OTHER_SHOP, String(acme._id))).toBeNull();
    const names = await service.vendorNames(SHOP, [acme._id, gone._id, new Types.ObjectId()]);
    expect([...names.values()].sort()).toEqual(['acme', 'gone']);
  });

  it('lists only active vendors’ commissions', async () => {
    vendors.add(
      vendor('b-active'),
      vendor('a-gone', { active: false }),
      vendor('c-old', { active: undefined }),
    );
    expect((await service.listActiveCommissions(SHOP)).map((v) => v.vendorName)).toEqual([
      'b-active',
      'c-old',
    ]);
  });

  it('deactivation and reactivation carry over to the vendor’s users and API keys; other changes do not touch them', async () => {
    const [acme] = vendors.add(vendor('acme'));
    const id = String(acme._id);
    expect(await vendorUsers.deactivate(SHOP, id)).toMatchObject({ active: false });
    await vendorUsers.patch(SHOP, id, { commissionAmount: 5 });
    await vendorUsers.patch(SHOP, id, { active: true });
    expect(users.activeFlags).toEqual([
      { vendorId: id, active: false },
      { vendorId: id, active: true },
    ]);
    // Its API keys follow it too (their tokens are refused while it is inactive).
    expect(keyFlags).toEqual([
      { vendorId: id, active: false },
      { vendorId: id, active: true },
    ]);
  });

  it('reads a vendor with its users only when asked', async () => {
    const [acme] = vendors.add(vendor('acme'));
    users.users = [{ _id: 'u1', vendorId: String(acme._id), email: 'jane@acme.example' } as UserDto];
    const plain = await vendorUsers.read(SHOP, String(acme._id), false);
    expect(plain.vendor[0].users).toBeUndefined();
    const withUsers = await vendorUsers.read(SHOP, String(acme._id), true);
    expect(withUsers.vendor[0].users?.map((u) => u.email)).toEqual(['jane@acme.example']);
  });
});
