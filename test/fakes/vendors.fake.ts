import { Types } from 'mongoose';
import type {
  SkuCommissionsRepository,
  SkuWriteEvents,
} from '../../src/commissions/sku-commissions.repository';
import type { StoredSku } from '../../src/commissions/sku-upload';
import { ShopScope, toObjectId } from '../../src/common/tenancy';
import type { UserDto } from '../../src/users/dto/user-response.dto';
import type { UsersService } from '../../src/users/users.service';
import type { CommissionType, Vendor } from '../../src/vendors/vendor.schema';
import type { VendorsRepository, VendorSummary } from '../../src/vendors/vendors.repository';
import { fakePart, type FakeUnionPart, inScope, SHOP } from './fake';

/** A stored vendor with the schema's defaults. */
export function vendor(
  vendorName: string,
  terms: { commissionType?: CommissionType; commissionAmount?: number; active?: boolean } = {},
  scope: ShopScope = SHOP,
): Vendor {
  const at = new Date('2026-11-01T10:00:00.000Z');
  return {
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(scope.shopId),
    vendorName,
    commissionType: terms.commissionType ?? 'percentage',
    commissionAmount: terms.commissionAmount ?? 10,
    active: terms.active ?? true,
    address: {} as Vendor['address'],
    profile: [],
    createdAt: at,
    updatedAt: at,
  };
}

type VendorMethods =
  'create' | 'findById' | 'findSummaries' | 'findByNames' | 'namesOrIdsPart' | 'listActive' | 'update';

/** The vendors collection in memory; the unique (shop, name) index refuses like the driver does. */
export class FakeVendorsRepository implements Pick<VendorsRepository, VendorMethods> {
  readonly docs: Vendor[] = [];

  add(...vendors: Vendor[]): Vendor[] {
    this.docs.push(...vendors);
    return vendors;
  }

  async create(
    scope: ShopScope,
    data: Pick<Vendor, 'vendorName' | 'commissionType' | 'commissionAmount'>,
  ): Promise<Vendor> {
    this.assertUniqueName(scope, data.vendorName, null);
    const created = { ...vendor(data.vendorName, data, scope), active: true };
    this.docs.push(created);
    return { ...created };
  }

  async findById(scope: ShopScope, id: string | Types.ObjectId): Promise<Vendor | null> {
    const _id = typeof id === 'string' ? toObjectId(id) : id;
    const doc = _id ? this.live(scope).find((v) => v._id.equals(_id)) : undefined;
    return doc ? { ...doc } : null;
  }

  async findSummaries(scope: ShopScope, ids: Array<string | Types.ObjectId>): Promise<VendorSummary[]> {
    const wanted = new Set(ids.map(String));
    return this.live(scope)
      .filter((v) => wanted.has(String(v._id)))
      .map(summary);
  }

  namesOrIdsPart(
    tag: string,
    scope: ShopScope,
    names: string[],
    ids: Array<string | Types.ObjectId>,
  ): FakeUnionPart | null {
    if (names.length === 0 && ids.length === 0) return null;
    return fakePart(tag, () => this.namesOrIds(scope, names, ids));
  }

  private namesOrIds(
    scope: ShopScope,
    names: string[],
    ids: Array<string | Types.ObjectId>,
  ): VendorSummary[] {
    const wanted = new Set(ids.map(String));
    return this.live(scope)
      .filter((v) => names.includes(v.vendorName) || wanted.has(String(v._id)))
      .sort((a, b) => a.vendorName.localeCompare(b.vendorName))
      .map(summary);
  }

  async findByNames(scope: ShopScope, names: string[]): Promise<VendorSummary[]> {
    return this.live(scope)
      .filter((v) => names.includes(v.vendorName))
      .map(summary);
  }

  async listActive(scope: ShopScope): Promise<VendorSummary[]> {
    return this.live(scope)
      .filter((v) => v.active !== false)
      .sort((a, b) => a.vendorName.localeCompare(b.vendorName))
      .map(summary);
  }

  async update(scope: ShopScope, id: Types.ObjectId, set: Record<string, unknown>): Promise<Vendor | null> {
    const doc = this.live(scope).find((v) => v._id.equals(id));
    if (!doc) return null;
    if (typeof set.vendorName === 'string') this.assertUniqueName(scope, set.vendorName, id);
    for (const [k, v] of Object.entries(set)) {
      if (k.startsWith('address.')) doc.address = { ...doc.address, [k.slice(8)]: v };
      else (doc as unknown as Record<string, unknown>)[k] = v;
    }
    return { ...doc };
  }

  private assertUniqueName(scope: ShopScope, vendorName: string, except: Types.ObjectId | null): void {
    if (this.live(scope).some((v) => v.vendorName === vendorName && !(except && v._id.equals(except)))) {
      throw Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
    }
  }

  private live(scope: ShopScope): Vendor[] {
    return inScope(scope, this.docs);
  }
}

function summary(v: Vendor): VendorSummary {
  const { _id, vendorName, commissionType, commissionAmount, active } = v;
  return { _id, vendorName, commissionType, commissionAmount, active };
}

/** SKU records in memory: what pricing reads and what a `costOfItem` write sets. */
export class FakeSkuCommissionsRepository implements Pick<
  SkuCommissionsRepository,
  'findBySkus' | 'skusPart' | 'setCostOfGoods'
> {
  readonly records = new Map<string, StoredSku>();

  add(sku: string, values: Partial<Omit<StoredSku, '_id' | 'sku'>>): void {
    this.records.set(sku, {
      _id: new Types.ObjectId(),
      sku,
      commissionType: null,
      commissionAmount: null,
      costOfGoods: null,
      ...values,
    });
  }

  async findBySkus(_scope: ShopScope, skus: string[]): Promise<Map<string, StoredSku>> {
    return new Map(skus.filter((s) => this.records.has(s)).map((s) => [s, { ...this.records.get(s)! }]));
  }

  skusPart(tag: string, _scope: ShopScope, skus: string[]): FakeUnionPart | null {
    if (skus.length === 0) return null;
    return fakePart(tag, () =>
      skus.filter((s) => this.records.has(s)).map((s) => ({ ...this.records.get(s)! })),
    );
  }

  async setCostOfGoods(
    _scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
  ): Promise<SkuWriteEvents> {
    for (const e of entries) {
      const current = this.records.get(e.sku);
      if (current) current.costOfGoods = e.costOfGoods;
      else this.add(e.sku, { costOfGoods: e.costOfGoods });
    }
    return { events: [], applied: 'all' };
  }
}

/** The users side of vendor (de)activation and GET /v1/vendors/{id}?users=true. */
export class FakeVendorUsers implements Pick<UsersService, 'listForVendor' | 'setVendorActive'> {
  readonly activeFlags: Array<{ vendorId: string; active: boolean }> = [];
  users: UserDto[] = [];

  async listForVendor(_scope: ShopScope, vendorId: Types.ObjectId): Promise<UserDto[]> {
    return this.users.filter((u) => u.vendorId === String(vendorId));
  }

  async setVendorActive(_scope: ShopScope, vendorId: Types.ObjectId, active: boolean): Promise<void> {
    this.activeFlags.push({ vendorId: String(vendorId), active });
  }
}
