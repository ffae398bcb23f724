import { asReal } from '../../test/fakes/fake';
import { FakePayoutProviderSecretsRepository } from '../../test/fakes/payout-providers.fake';
import { DataCipher, keyId } from '../common/secrets/data-cipher';
import { PayoutProviderSecretsService } from './payout-provider-secrets.service';
import type { PayoutProvidersRepository } from './payout-providers.repository';

const OLD = '1'.repeat(64);
const NEW = '2'.repeat(64);
const cipher = (current: string | undefined, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: 'production' },
  );

describe('PayoutProviderSecretsService.rotate (secrets:rotate, payout provider secrets)', () => {
  it('re-seals every Stripe and PayPal secret under the current key; opened by the new key alone; idempotent', async () => {
    const repo = new FakePayoutProviderSecretsRepository();
    const before = cipher(OLD);
    const seal = (shop: { shopId: { toString(): string } }, v: string) =>
      before.encrypt(String(shop.shopId), v);
    const rows = Array.from({ length: 250 }, (_, i) => {
      const row = repo.add({});
      row.stripeSecretKeyEnc = seal(row, `sk_test_${i}`);
      row.stripeWebhookSecretEnc = i % 2 ? seal(row, `whsec_${i}`) : null;
      row.paypalClientIdEnc = i % 5 === 0 ? seal(row, `pp_id_${i}`) : null;
      row.paypalClientSecretEnc = i % 5 === 0 ? seal(row, `pp_secret_${i}`) : null;
      return { row, i };
    });
    const service = new PayoutProviderSecretsService(
      asReal<PayoutProvidersRepository>(repo),
      cipher(NEW, OLD),
    );

    const sealedValues = 250 + 125 + 50 + 50;
    expect(await service.rotate()).toEqual({
      documents: 250,
      resealed: 250,
      current: 0,
      unreadable: 0,
      skipped: 0,
    });
    // Only the new key is needed from now on: the previous one can be dropped.
    const onlyNew = cipher(NEW);
    const newKeyId = keyId(Buffer.from(NEW, 'hex'));
    for (const { row, i } of rows) {
      const stored = repo.rows.find((r) => r._id.equals(row._id))!;
      const id = String(stored.shopId);
      expect(stored.stripeSecretKeyEnc!.split('.')[1]).toBe(newKeyId);
      expect(onlyNew.decrypt(id, stored.stripeSecretKeyEnc!)).toBe(`sk_test_${i}`);
      expect(stored.stripeWebhookSecretEnc && onlyNew.decrypt(id, stored.stripeWebhookSecretEnc)).toBe(
        i % 2 ? `whsec_${i}` : null,
      );
      expect(stored.paypalClientSecretEnc && onlyNew.decrypt(id, stored.paypalClientSecretEnc)).toBe(
        i % 5 === 0 ? `pp_secret_${i}` : null,
      );
    }
    expect(await service.rotate()).toEqual({
      documents: 250,
      resealed: 0,
      current: sealedValues,
      unreadable: 0,
      skipped: 0,
    });
  });

  it('leaves a secret no key opens, and never overwrites credentials replaced meanwhile', async () => {
    const repo = new FakePayoutProviderSecretsRepository();
    const lost = repo.add({});
    lost.stripeSecretKeyEnc = cipher('3'.repeat(64)).encrypt(String(lost.shopId), 'sk_test_lost');
    const raced = repo.add({});
    raced.stripeSecretKeyEnc = cipher(OLD).encrypt(String(raced.shopId), 'sk_test_old');
    const replacedByApi = cipher(NEW).encrypt(String(raced.shopId), 'sk_test_new');
    repo.beforeReplace = (row) => {
      if (row._id.equals(raced._id)) row.stripeSecretKeyEnc = replacedByApi;
    };
    const report = await new PayoutProviderSecretsService(
      asReal<PayoutProvidersRepository>(repo),
      cipher(NEW, OLD),
    ).rotate();
    expect(report).toEqual({ documents: 2, resealed: 0, current: 0, unreadable: 1, skipped: 1 });
    expect(repo.rows.find((r) => r._id.equals(raced._id))!.stripeSecretKeyEnc).toBe(replacedByApi);
  });
});
