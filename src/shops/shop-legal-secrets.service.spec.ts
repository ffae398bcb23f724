import { Types } from 'mongoose';
import { asReal } from '../../test/fakes/fake';
import { DataCipher } from '../common/secrets/data-cipher';
import type { ShopLegalRepository, ShopLegalSecret } from './shop-legal.repository';
import { ShopLegalSecretsRotation } from './shop-legal-secrets.service';

const OLD = '1'.repeat(64);
const NEW = '2'.repeat(64);
const cipher = (current: string, previous?: string) =>
  new DataCipher(
    { encryptionKey: current, previousEncryptionKey: previous },
    { jwtSecret: 'x'.repeat(40) },
    { nodeEnv: 'production' },
  );

/** The shops' sealed legal tax ids in memory, with the repository's compare-and-set. */
class FakeShopLegal implements Pick<ShopLegalRepository, 'secretsPage' | 'replaceTaxId'> {
  rows: ShopLegalSecret[] = [];
  beforeReplace?: (row: ShopLegalSecret) => void;
  async secretsPage(after: Types.ObjectId | null, limit: number) {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .slice(0, limit)
      .map((r) => ({ _id: r._id, legal: r.legal && { ...r.legal } }));
  }
  async replaceTaxId(shopId: Types.ObjectId, before: string, after: string) {
    const row = this.rows.find((r) => r._id.equals(shopId));
    if (row) this.beforeReplace?.(row);
    if (!row?.legal || row.legal.taxIdEnc !== before) return false;
    row.legal.taxIdEnc = after;
    return true;
  }
}

describe('ShopLegalSecretsRotation (secrets:rotate)', () => {
  it('re-seals every shop tax id under the current key, skips shops without one, and is idempotent', async () => {
    const repo = new FakeShopLegal();
    const old = cipher(OLD);
    for (let i = 0; i < 250; i++) {
      const _id = new Types.ObjectId();
      const taxIdEnc = i % 5 === 0 ? null : old.seal('shop-tax-id', String(_id), `DE-TAX-${i}`);
      repo.rows.push({ _id, legal: i % 10 === 1 ? undefined : { taxIdEnc } });
    }
    repo.rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    const sealed = repo.rows.filter((r) => r.legal?.taxIdEnc).length;
    const service = new ShopLegalSecretsRotation(asReal<ShopLegalRepository>(repo), cipher(NEW, OLD));
    expect(await service.rotate()).toEqual({
      documents: sealed,
      resealed: sealed,
      current: 0,
      unreadable: 0,
      skipped: 0,
    });
    const onlyNew = cipher(NEW);
    for (const r of repo.rows.filter((x) => x.legal?.taxIdEnc)) {
      expect(onlyNew.open('shop-tax-id', String(r._id), r.legal!.taxIdEnc!)).toMatch(/^DE-TAX-\d+$/);
    }
    expect(await service.rotate()).toEqual({
      documents: sealed,
      resealed: 0,
      current: sealed,
      unreadable: 0,
      skipped: 0,
    });
  });

  it('leaves a value no key opens and a shop changed during the run', async () => {
    const repo = new FakeShopLegal();
    const lost = { _id: new Types.ObjectId(), legal: { taxIdEnc: '' } };
    lost.legal.taxIdEnc = cipher('3'.repeat(64)).seal('shop-tax-id', String(lost._id), 'LOST');
    const busy = { _id: new Types.ObjectId(), legal: { taxIdEnc: '' } };
    busy.legal.taxIdEnc = cipher(OLD).seal('shop-tax-id', String(busy._id), 'BUSY');
    const lostBefore = lost.legal.taxIdEnc;
    repo.rows.push(lost, busy);
    repo.beforeReplace = (row) => {
      if (row._id.equals(busy._id)) row.legal = { taxIdEnc: 'changed-through-the-api' };
    };
    const service = new ShopLegalSecretsRotation(asReal<ShopLegalRepository>(repo), cipher(NEW, OLD));
    expect(await service.rotate()).toEqual({
      documents: 2,
      resealed: 0,
      current: 0,
      unreadable: 1,
      skipped: 1,
    });
    expect(busy.legal.taxIdEnc).toBe('changed-through-the-api');
    expect(lost.legal.taxIdEnc).toBe(lostBefore);
  });
});
