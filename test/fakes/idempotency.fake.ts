import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { IdempotencyRecord } from '../../src/idempotency/idempotency-record.schema';
import type {
  Claim,
  IdempotencyOwner,
  IdempotencyRepository,
} from '../../src/idempotency/idempotency.repository';

/** idempotency_keys in memory, with the unique (shop, credential kind and id, key) index and the conditional writes. */
export class FakeIdempotencyRepository implements Pick<
  IdempotencyRepository,
  'insert' | 'find' | 'takeOver' | 'complete' | 'release'
> {
  readonly records: IdempotencyRecord[] = [];

  async insert(
    scope: ShopScope,
    owner: IdempotencyOwner,
    key: string,
    claim: Claim,
  ): Promise<Types.ObjectId> {
    if (this.records.some((r) => this.matches(r, scope, owner, key)))
      throw Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
    const _id = new Types.ObjectId();
    this.records.push({
      _id,
      shopId: new Types.ObjectId(scope.shopId),
      credentialKind: owner.kind,
      credentialId: owner.id,
      key,
      ...claim,
      state: 'in_progress',
      status: null,
      body: null,
    });
    return _id;
  }

  async find(scope: ShopScope, owner: IdempotencyOwner, key: string): Promise<IdempotencyRecord | null> {
    const r = this.records.find((x) => this.matches(x, scope, owner, key));
    return r ? { ...r } : null;
  }

  private matches(r: IdempotencyRecord, scope: ShopScope, owner: IdempotencyOwner, key: string): boolean {
    return (
      String(r.shopId) === scope.shopId &&
      r.credentialKind === owner.kind &&
      r.credentialId === owner.id &&
      r.key === key
    );
  }

  async takeOver(scope: ShopScope, seen: IdempotencyRecord, claim: Claim): Promise<boolean> {
    const r = this.byId(scope, seen._id);
    if (!r || r.lockId !== seen.lockId || r.expiresAt.getTime() !== seen.expiresAt.getTime()) return false;
    Object.assign(r, claim, { state: 'in_progress', status: null, body: null });
    return true;
  }

  async complete(
    scope: ShopScope,
    id: Types.ObjectId,
    lockId: string,
    answer: { status: number; body: string },
  ): Promise<void> {
    const r = this.byId(scope, id);
    if (r && r.lockId === lockId)
      Object.assign(r, { state: 'completed', ...answer, lockId: null, lockedUntil: null });
  }

  async release(scope: ShopScope, id: Types.ObjectId, lockId: string): Promise<void> {
    const i = this.records.findIndex(
      (r) => r._id.equals(id) && String(r.shopId) === scope.shopId && r.lockId === lockId,
    );
    if (i >= 0) this.records.splice(i, 1);
  }

  private byId(scope: ShopScope, id: Types.ObjectId): IdempotencyRecord | undefined {
    return this.records.find((r) => r._id.equals(id) && String(r.shopId) === scope.shopId);
  }
}
