import { Types } from 'mongoose';
import {
  PayoutProvidersRepository,
  SEALED_PROVIDER_FIELDS,
  SealedProviderField,
  SealedProviderSecrets,
} from '../../src/transfers/payout-providers.repository';

/** The shops' sealed payout provider secrets in memory, with the repository's compare-and-set. */
export class FakePayoutProviderSecretsRepository implements Pick<
  PayoutProvidersRepository,
  'secretsPage' | 'replaceSecrets'
> {
  rows: SealedProviderSecrets[] = [];
  /** Called before each compare-and-set: lets a test change a row "concurrently". */
  beforeReplace?: (row: SealedProviderSecrets) => void;

  add(secrets: Partial<Record<SealedProviderField, string | null>>): SealedProviderSecrets {
    const shopId = new Types.ObjectId();
    const row = {
      _id: shopId,
      shopId,
      stripeSecretKeyEnc: null,
      stripeWebhookSecretEnc: null,
      paypalClientIdEnc: null,
      paypalClientSecretEnc: null,
      ...secrets,
    };
    this.rows.push(row);
    this.rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    return row;
  }

  async secretsPage(after: Types.ObjectId | null, limit: number): Promise<SealedProviderSecrets[]> {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async replaceSecrets(
    before: SealedProviderSecrets,
    after: Record<SealedProviderField, string | null>,
  ): Promise<boolean> {
    const row = this.rows.find((r) => r._id.equals(before._id));
    if (!row) return false;
    this.beforeReplace?.(row);
    if (SEALED_PROVIDER_FIELDS.some((f) => (row[f] ?? null) !== (before[f] ?? null))) return false;
    Object.assign(row, after);
    return true;
  }
}
