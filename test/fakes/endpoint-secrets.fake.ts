import { Types } from 'mongoose';
import type {
  SealedEndpointSecrets,
  SystemEndpointSecretsRepository,
} from '../../src/events/system-endpoint-secrets.repository';
import type { StoredSecret } from '../../src/event-port/webhook-endpoint.schema';

/** Every shop's webhook endpoints' sealed secrets in memory, with the repository's compare-and-set. */
export class FakeEndpointSecrets implements Pick<
  SystemEndpointSecretsRepository,
  'secretsPage' | 'replaceSecrets'
> {
  rows: SealedEndpointSecrets[] = [];
  /** Called before each compare-and-set: lets a test change a row "concurrently". */
  beforeReplace?: (row: SealedEndpointSecrets) => void;

  add(shopId: string, secrets: StoredSecret[]): SealedEndpointSecrets {
    const row = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(shopId),
      secrets,
      updatedAt: new Date(),
    };
    this.rows.push(row);
    return row;
  }

  async secretsPage(after: Types.ObjectId | null, limit: number): Promise<SealedEndpointSecrets[]> {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .sort((a, b) => String(a._id).localeCompare(String(b._id)))
      .slice(0, limit)
      .map((r) => ({ ...r, secrets: r.secrets.map((s) => ({ ...s })) }));
  }

  async replaceSecrets(before: SealedEndpointSecrets, secrets: StoredSecret[]): Promise<boolean> {
    const row = this.rows.find((r) => r._id.equals(before._id) && r.shopId.equals(before.shopId));
    if (!row) return false;
    this.beforeReplace?.(row);
    if (row.updatedAt.getTime() !== before.updatedAt.getTime()) return false;
    row.secrets = secrets;
    return true;
  }
}
