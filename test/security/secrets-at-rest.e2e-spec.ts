import { randomBytes } from 'node:crypto';
import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { keyId } from '../../src/common/secrets/data-cipher';
import { ShopSecretsService } from '../../src/shops/shop-secrets.service';
import { PayoutProviders } from '../../src/transfers/payout-provider.schema';
import { PayoutProviderSecretsService } from '../../src/transfers/payout-provider-secrets.service';
import { Shop } from '../../src/shops/shop.schema';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { sendWebhook, shopifyProduct } from '../support/webhooks';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');

/**
 * Issue 18, item 6: webhook secrets are sealed at rest under a named key, and the key rotates
 * (`secrets:rotate`). The rotation re-seals every shop it finds: like every e2e file, this one runs
 * on a database of its own (test/support/database-per-file.ts).
 */
describe('security: webhook secrets at rest and key rotation (e2e)', () => {
  let t: TestApp | null = null;
  let shop: TestShop;

  const boot = async (current: string, previous?: string) => {
    await t?.close();
    process.env.DATA_ENCRYPTION_KEY = current;
    if (previous) process.env.DATA_ENCRYPTION_KEY_PREVIOUS = previous;
    else delete process.env.DATA_ENCRYPTION_KEY_PREVIOUS;
    t = await startApp();
    return t;
  };
  const stored = async () =>
    (await t!.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .findOne({ _id: new Types.ObjectId(shop.shopId) })
      .lean<Shop>()
      .exec())!.webhookSecret;
  const webhookStatus = async () => (await sendWebhook(t!, shop, 'products/create', shopifyProduct())).status;

  afterAll(async () => {
    await t?.app.get<Connection>(getConnectionToken()).dropDatabase();
    await t?.close();
    delete process.env.DATA_ENCRYPTION_KEY;
    delete process.env.DATA_ENCRYPTION_KEY_PREVIOUS;
  });

  it('stores the webhook secret sealed under the current key, never in clear', async () => {
    await boot(KEY_A);
    shop = await createShop(t!, 'sec-secrets');
    const sealed = await stored();
    expect(sealed).not.toContain(shop.webhookSecret);
    expect(sealed.split('.').slice(0, 2)).toEqual(['v2', keyId(Buffer.from(KEY_A, 'hex'))]);
    expect(await webhookStatus()).toBe(200);
  });

  it('rotates: the previous key opens old values, secrets:rotate re-seals them, the old key can go', async () => {
    await boot(KEY_B, KEY_A);
    expect(await webhookStatus()).toBe(200); // opened with the previous key
    const report = await t!.app.get(ShopSecretsService).rotate();
    expect(report).toMatchObject({
      keyId: keyId(Buffer.from(KEY_B, 'hex')),
      resealed: 1,
      unreadable: 0,
      skipped: 0,
    });
    expect((await stored()).split('.')[1]).toBe(keyId(Buffer.from(KEY_B, 'hex')));
    expect(await t!.app.get(ShopSecretsService).rotate()).toMatchObject({ resealed: 0, current: 1 });

    await boot(KEY_B);
    expect(await webhookStatus()).toBe(200);
    await boot(KEY_A); // the old key alone no longer opens anything
    expect(await webhookStatus()).toBe(401);
  });

  it('a clear-text secret from before sealing still verifies, and rotation seals it', async () => {
    await boot(KEY_B);
    await t!.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .updateOne({ _id: new Types.ObjectId(shop.shopId) }, { $set: { webhookSecret: shop.webhookSecret } })
      .exec();
    expect(await webhookStatus()).toBe(200);
    expect(await t!.app.get(ShopSecretsService).rotate()).toMatchObject({ resealed: 1 });
    expect(await stored()).toMatch(/^v2\./);
    await boot(KEY_B); // a fresh process: no cached secret
    expect(await webhookStatus()).toBe(200);
  });

  it('secrets:rotate also re-seals the payout provider secrets (Stripe, PayPal); the new key alone opens them', async () => {
    const STRIPE = 'sk_test_rotateMe0001wxyz';
    const providers = () =>
      t!.app
        .get<Model<PayoutProviders>>(getModelToken(PayoutProviders.name))
        .findOne({ shopId: new Types.ObjectId(shop.shopId) })
        .lean<PayoutProviders>()
        .exec();
    const hints = async () => {
      const res = await t!.api.get('/v1/shop/payout-providers', { token: shop.token });
      expect(res.status).toBe(200);
      return [res.body.stripe.secretKeyHint, res.body.paypal.clientIdHint];
    };
    await boot(KEY_A);
    const set = await t!.api.put(
      '/v1/shop/payout-providers',
      { stripeSecretKey: STRIPE, paypalClientId: 'pp-client-rot1', paypalClientSecret: 'pp-secret-rot1' },
      { token: shop.token },
    );
    expect(set.status).toBe(200);
    const sealedA = (await providers())!;
    expect(JSON.stringify(sealedA)).not.toContain(STRIPE);
    expect(sealedA.stripeSecretKeyEnc!.split('.')[1]).toBe(keyId(Buffer.from(KEY_A, 'hex')));

    await boot(KEY_B, KEY_A);
    expect(await hints()).toEqual(['sk_test_…wxyz', '…rot1']); // opened with the previous key
    expect(await t!.app.get(PayoutProviderSecretsService).rotate()).toMatchObject({
      resealed: 1,
      unreadable: 0,
      skipped: 0,
    });
    const sealedB = (await providers())!;
    for (const v of [sealedB.stripeSecretKeyEnc, sealedB.paypalClientIdEnc, sealedB.paypalClientSecretEnc])
      expect(v!.split('.')[1]).toBe(keyId(Buffer.from(KEY_B, 'hex')));
    expect(await t!.app.get(PayoutProviderSecretsService).rotate()).toMatchObject({
      resealed: 0,
      current: 3,
    });

    await boot(KEY_B); // the previous key dropped: the credentials still open
    expect(await hints()).toEqual(['sk_test_…wxyz', '…rot1']);
  });
});
