import { Types } from 'mongoose';
import type { ShopSecrets, ShopsRepository } from '../../src/shops/shops.repository';

/** The shops' stored secrets in memory, with the repository's compare-and-set semantics. */
export class FakeShopSecretsRepository implements Pick<ShopsRepository, 'secretsPage' | 'replaceSecrets'> {
  rows: ShopSecrets[] = [];
  /** Called before each compare-and-set: lets a test change a row "concurrently". */
  beforeReplace?: (row: ShopSecrets) => void;

  add(webhookSecret: string, platformAccessTokenEnc: string | null = null): ShopSecrets {
    const row = { _id: new Types.ObjectId(), webhookSecret, settings: { platformAccessTokenEnc } };
    this.rows.push(row);
    this.rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    return row;
  }

  async secretsPage(after: Types.ObjectId | null, limit: number): Promise<ShopSecrets[]> {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .slice(0, limit)
      .map((r) => ({ _id: r._id, webhookSecret: r.webhookSecret, settings: { ...r.settings } }));
  }

  async replaceSecrets(
    before: ShopSecrets,
    after: { webhookSecret: string; platformAccessTokenEnc: string | null },
  ): Promise<boolean> {
    const row = this.rows.find((r) => r._id.equals(before._id));
    if (!row) return false;
    this.beforeReplace?.(row);
    if (
      row.webhookSecret !== before.webhookSecret ||
      (row.settings?.platformAccessTokenEnc ?? null) !== (before.settings?.platformAccessTokenEnc ?? null)
    )
      return false;
    row.webhookSecret = after.webhookSecret;
    row.settings = { platformAccessTokenEnc: after.platformAccessTokenEnc };
    return true;
  }
}
