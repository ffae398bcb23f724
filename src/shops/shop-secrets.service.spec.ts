import { asReal } from '../../test/fakes/fake';
import { FakeShopSecretsRepository } from '../../test/fakes/shop-secrets.fake';
import { DataCipher, keyId } from '../common/secrets/data-cipher';
import type { ShopsRepository } from './shops.repository';
import { ShopSecretsService } from './shop-secrets.service';

const OLD = '1'.repeat(64);
const NEW = '2'.repeat(64);
const cipher = (current: string | undefined, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: 'production' },
  );

describe('ShopSecretsService.rotate (secrets:rotate)', () => {
  it('re-seals every secret under the current key, seals clear-text ones, and is idempotent', async () => {
    const repo = new FakeShopSecretsRepository();
    const before = cipher(OLD);
    const shops = Array.from({ length: 450 }, () => repo.add('placeholder'));
    // 449 sealed under the old key (with a token on every other), one legacy clear-text secret
    shops.forEach((s, i) => {
      const id = String(s._id);
      s.webhookSecret = i === 0 ? 'whsec_clear' : before.seal('webhook-secret', id, `whsec_${i}`);
      s.settings = { platformAccessTokenEnc: i % 2 ? before.encrypt(id, `shpat_${i}`) : null };
    });
    const after = cipher(NEW, OLD);
    const service = new ShopSecretsService(asReal<ShopsRepository>(repo), after);

    const report = await service.rotate();
    expect(report).toEqual({
      keyId: keyId(Buffer.from(NEW, 'hex')),
      shops: 450,
      resealed: 450,
      current: 0,
      unreadable: 0,
      skipped: 0,
    });
    const onlyNew = cipher(NEW);
    repo.rows.forEach((r) => {
      const i = shops.findIndex((s) => s._id.equals(r._id));
      expect(r.webhookSecret.split('.')[1]).toBe(report.keyId);
      expect(onlyNew.open('webhook-secret', String(r._id), r.webhookSecret)).toBe(
        i === 0 ? 'whsec_clear' : `whsec_${i}`,
      );
      const token = r.settings?.platformAccessTokenEnc ?? null;
      expect(token === null ? null : onlyNew.decrypt(String(r._id), token)).toBe(i % 2 ? `shpat_${i}` : null);
    });

    expect(await service.rotate()).toMatchObject({ shops: 450, resealed: 0, current: 450 + 225 });
  });

  it('leaves values no key opens, and never overwrites a shop changed meanwhile', async () => {
    const repo = new FakeShopSecretsRepository();
    const lost = repo.add(cipher('3'.repeat(64)).seal('webhook-secret', 'x', 'whsec_lost'));
    const raced = repo.add('whsec_clear');
    repo.beforeReplace = (row) => {
      if (row._id.equals(raced._id)) row.settings = { platformAccessTokenEnc: 'v2.set-by-the-api' };
    };
    const report = await new ShopSecretsService(asReal<ShopsRepository>(repo), cipher(NEW, OLD)).rotate();
    expect(report).toMatchObject({ shops: 2, resealed: 0, unreadable: 1, skipped: 1 });
    expect(repo.rows.find((r) => r._id.equals(lost._id))!.webhookSecret).toBe(lost.webhookSecret);
    expect(repo.rows.find((r) => r._id.equals(raced._id))!.webhookSecret).toBe('whsec_clear');
  });

  it('refuses to run without a current key', async () => {
    const service = new ShopSecretsService(
      asReal<ShopsRepository>(new FakeShopSecretsRepository()),
      cipher(undefined),
    );
    await expect(service.rotate()).rejects.toThrow(/DATA_ENCRYPTION_KEY is not configured/);
  });
});
