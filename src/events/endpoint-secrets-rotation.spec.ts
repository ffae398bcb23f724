import { randomBytes } from 'node:crypto';
import { FakeEndpointSecrets } from '../../test/fakes/endpoint-secrets.fake';
import { asReal, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { DataCipher } from '../common/secrets/data-cipher';
import { EndpointSecretsRotation } from './endpoint-secrets-rotation.service';
import type { SystemEndpointSecretsRepository } from './system-endpoint-secrets.repository';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const cipher = (current: string, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'unit' },
    { nodeEnv: 'test' },
  );
const sealed = (c: DataCipher, shopId: string, secret: string, expiresAt: Date | null = null) => ({
  secretEnc: c.encrypt(shopId, secret),
  createdAt: new Date(),
  expiresAt,
});

describe('EndpointSecretsRotation (secrets:rotate, webhook endpoints)', () => {
  it('re-seals every secret under the current key, keeps dates, counts current and unreadable ones', async () => {
    const a = cipher(KEY_A);
    const b = cipher(KEY_B, KEY_A);
    const repo = new FakeEndpointSecrets();
    const overlap = new Date(Date.now() + 3600_000);
    const two = repo.add(SHOP.shopId, [
      sealed(a, SHOP.shopId, 'whsec_new'),
      sealed(a, SHOP.shopId, 'whsec_old', overlap),
    ]);
    const done = repo.add(OTHER_SHOP.shopId, [sealed(b, OTHER_SHOP.shopId, 'whsec_b')]);
    const lost = repo.add(SHOP.shopId, [
      sealed(cipher(randomBytes(32).toString('hex')), SHOP.shopId, 'whsec_x'),
    ]);
    const rotation = new EndpointSecretsRotation(asReal<SystemEndpointSecretsRepository>(repo), b);

    expect(await rotation.rotate()).toEqual({
      endpoints: 3,
      resealed: 1,
      current: 1,
      unreadable: 1,
      skipped: 0,
    });
    const after = cipher(KEY_B);
    expect(two.secrets.map((s) => after.decrypt(SHOP.shopId, s.secretEnc))).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
    expect(two.secrets.map((s) => s.expiresAt)).toEqual([null, overlap]);
    expect(after.decrypt(OTHER_SHOP.shopId, done.secrets[0].secretEnc)).toBe('whsec_b');
    expect(after.decrypt(SHOP.shopId, lost.secrets[0].secretEnc)).toBeNull(); // left as it was
    expect(await rotation.rotate()).toMatchObject({ resealed: 0, current: 3, unreadable: 1 });
  });

  it('never overwrites an endpoint changed meanwhile (a secret rotated through the API): skipped', async () => {
    const repo = new FakeEndpointSecrets();
    const row = repo.add(SHOP.shopId, [sealed(cipher(KEY_A), SHOP.shopId, 'whsec_old')]);
    const fresh = sealed(cipher(KEY_B), SHOP.shopId, 'whsec_fresh');
    repo.beforeReplace = (r) => {
      r.secrets = [fresh];
      r.updatedAt = new Date(r.updatedAt.getTime() + 1);
    };
    const rotation = new EndpointSecretsRotation(
      asReal<SystemEndpointSecretsRepository>(repo),
      cipher(KEY_B, KEY_A),
    );
    expect(await rotation.rotate()).toMatchObject({ resealed: 0, skipped: 1 });
    expect(row.secrets).toEqual([fresh]);
  });
});
