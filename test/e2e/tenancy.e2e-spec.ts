import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { MissingTenantError } from '../../src/database/tenant-guard.plugin';
import { MerchantKey } from '../../src/merchant-keys/merchant-key.schema';
import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop } from '../support/factory';

describe('tenancy guard on the real store (e2e)', () => {
  let t: TestApp;
  let model: Model<MerchantKey>;

  beforeAll(async () => {
    t = await startApp();
    model = t.app.get(getModelToken(MerchantKey.name));
  });
  afterAll(() => t.close());

  it('refuses queries, updates and aggregations on a tenant collection without shopId', async () => {
    await expect(model.find({}).exec()).rejects.toBeInstanceOf(MissingTenantError);
    await expect(model.findOne({ name: 'x' }).exec()).rejects.toBeInstanceOf(MissingTenantError);
    await expect(model.countDocuments({}).exec()).rejects.toBeInstanceOf(MissingTenantError);
    await expect(model.updateMany({}, { $set: { name: 'pwned' } }).exec()).rejects.toBeInstanceOf(
      MissingTenantError,
    );
    await expect(model.deleteMany({}).exec()).rejects.toBeInstanceOf(MissingTenantError);
    await expect(model.aggregate([{ $group: { _id: null, n: { $sum: 1 } } }]).exec()).rejects.toBeInstanceOf(
      MissingTenantError,
    );
  });

  it('allows them with a shopId, and that shopId limits the result', async () => {
    const a = await createShop(t, 'ten-a');
    const b = await createShop(t, 'ten-b');
    await createMerchantKey(t, a);
    await createMerchantKey(t, b);
    const rows = await model
      .find({ shopId: new Types.ObjectId(a.shopId) })
      .lean()
      .exec();
    expect(rows.length).toBe(1);
    expect(String(rows[0].shopId)).toBe(a.shopId);
  });
});
