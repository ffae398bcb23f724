import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { readCursorPage } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { AuditTrail } from '../audit/audit-trail.service';
import type { AuditAction } from '../audit/audit-actions';
import { applySet } from '../audit/audit-record';
import { ShopsService } from '../shops/shops.service';
import { UserVendor, UserVendors } from '../users/user-vendors.port';
import { commissionProblem } from './commission-rules';
import {
  ADDRESS_FIELDS,
  CreateVendorDto,
  PatchVendorDto,
  ProfileEntryDto,
  VendorAddressDto,
  VendorListQueryDto,
} from './dto/vendor.dto';
import { VendorDto, VendorsPageDto } from './dto/vendor-response.dto';
import { toVendorResponse } from './vendor.mapper';
import { isActiveVendor } from './vendor-policy';
import { CommissionType, Vendor, VendorProfileEntry } from './vendor.schema';
import { VendorsRepository } from './vendors.repository';

export interface ActiveVendorCommission {
  vendorId: string;
  vendorName: string;
  commissionType: CommissionType;
  commissionAmount: number;
}

@Injectable()
export class VendorsService implements UserVendors {
  constructor(
    private readonly vendors: VendorsRepository,
    private readonly shops: ShopsService,
    private readonly audit: AuditTrail,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async create(scope: ShopScope, dto: CreateVendorDto): Promise<VendorDto> {
    assertCommission(dto.commissionType, dto.commissionAmount);
    const data = {
      _id: new Types.ObjectId(),
      vendorName: dto.vendorName,
      commissionType: dto.commissionType,
      commissionAmount: dto.commissionAmount,
    };
    const stamp = this.audit.begin();
    const event = this.audit.created(
      scope,
      stamp,
      'vendor.create',
      { type: 'vendor', id: data._id },
      {
        vendorName: data.vendorName,
        commissionType: data.commissionType,
        commissionAmount: data.commissionAmount,
        active: true,
      },
    );
    let vendor: Vendor;
    try {
      vendor = await this.vendors.create(scope, data, stamp, event);
    } catch (err) {
      throw nameTaken(err, dto.vendorName);
    }
    await this.audit.commit(scope, this.vendors.outbox, stamp, [event], 'all');
    return toVendorResponse(vendor);
  }

  async get(scope: ShopScope, id: string): Promise<VendorDto> {
    return toVendorResponse(await this.getRecord(scope, id));
  }

  async getRecord(scope: ShopScope, id: string): Promise<Vendor> {
    const vendor = await this.vendors.findById(scope, id);
    if (!vendor) throw new NotFoundError('Vendor');
    return vendor;
  }

  /**
   * Changes only the given fields. The commission rule is checked on the result (a new type with
   * the stored amount, or the reverse); a rename onto another vendor's name is a 409.
   */
  async update(
    scope: ShopScope,
    id: string,
    patch: PatchVendorDto,
    action: AuditAction = 'vendor.update',
  ): Promise<VendorDto> {
    const current = await this.getRecord(scope, id);
    const set: Record<string, unknown> = {};
    if (patch.vendorName !== undefined && patch.vendorName !== current.vendorName)
      set.vendorName = patch.vendorName;
    if (patch.commissionType !== undefined || patch.commissionAmount !== undefined) {
      const type = patch.commissionType ?? current.commissionType;
      const amount = patch.commissionAmount ?? current.commissionAmount;
      assertCommission(type, amount);
      set.commissionType = type;
      set.commissionAmount = amount;
    }
    if (patch.active !== undefined) set.active = patch.active;
    if (patch.address !== undefined) Object.assign(set, addressSet(patch.address));
    if (patch.profile !== undefined)
      set.profile = mergeProfile(current.profile, await this.checkedProfile(scope, patch.profile));
    return this.apply(scope, current, set, action, patch.vendorName);
  }

  async setAddress(scope: ShopScope, id: string, address: VendorAddressDto): Promise<VendorDto> {
    const current = await this.getRecord(scope, id);
    return this.apply(scope, current, addressSet(address), 'vendor.address.update');
  }

  /** Sets the given entries; entries of other fields keep their values. */
  async setProfile(scope: ShopScope, id: string, entries: ProfileEntryDto[]): Promise<VendorDto> {
    const current = await this.getRecord(scope, id);
    const checked = await this.checkedProfile(scope, entries);
    return this.apply(
      scope,
      current,
      { profile: mergeProfile(current.profile, checked) },
      'vendor.profile.update',
    );
  }

  async page(scope: ShopScope, query: VendorListQueryDto): Promise<VendorsPageDto> {
    const active = query.active === undefined ? undefined : query.active === 'true';
    const page = await readCursorPage(
      query,
      this.auth.cursorKey,
      `vendors:${scope.shopId}`,
      (window) => this.vendors.page(scope, window, { active }),
      (v) => ({ t: new Date(v.createdAt).getTime(), id: String(v._id) }),
    );
    return {
      vendors: page.items.map(toVendorResponse),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }

  /** GET /v1/vendors: a page of the shop's vendor records (by name). */
  async listPage(
    scope: ShopScope,
    filter: { active?: boolean },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: Vendor[] }> {
    return this.vendors.listPage(scope, filter, page);
  }

  async listActiveCommissions(scope: ShopScope): Promise<ActiveVendorCommission[]> {
    return (await this.vendors.listActive(scope)).map((v) => ({
      vendorId: String(v._id),
      vendorName: v.vendorName,
      commissionType: v.commissionType,
      commissionAmount: v.commissionAmount,
    }));
  }

  /** UserVendors: the vendor a portal user belongs to, with the policy's active flag. */
  async findVendor(scope: ShopScope, vendorId: string): Promise<UserVendor | null> {
    const v = await this.vendors.findById(scope, vendorId);
    return v ? { _id: v._id, vendorName: v.vendorName, active: isActiveVendor(v) } : null;
  }

  /** UserVendors: vendor names by id, in one read. */
  async vendorNames(scope: ShopScope, ids: Types.ObjectId[]): Promise<Map<string, string>> {
    return new Map((await this.vendors.findSummaries(scope, ids)).map((v) => [String(v._id), v.vendorName]));
  }

  /** Writes the change with its audit event (only the fields whose values change). */
  private async apply(
    scope: ShopScope,
    current: Vendor,
    set: Record<string, unknown>,
    action: AuditAction,
    vendorName?: string,
  ): Promise<VendorDto> {
    if (Object.keys(set).length === 0) return toVendorResponse(current);
    const stamp = this.audit.begin();
    const before = auditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      action,
      { type: 'vendor', id: current._id },
      before,
      applySet(before, set),
    );
    let updated: Vendor | null;
    try {
      updated = await this.vendors.update(scope, current._id, set, stamp, event);
    } catch (err) {
      throw nameTaken(err, vendorName ?? current.vendorName);
    }
    if (!updated) throw new NotFoundError('Vendor');
    await this.audit.commit(scope, this.vendors.outbox, stamp, [event], [updated._id]);
    return toVendorResponse(updated);
  }

  /** Every field must be one the shop defined (GET /v1/shop/profile); the last entry of a field wins. */
  private async checkedProfile(scope: ShopScope, entries: ProfileEntryDto[]): Promise<VendorProfileEntry[]> {
    const shop = await this.shops.getById(scope.shopId);
    const allowed = new Set(shop.profileFields ?? []);
    const fields: Record<string, string[]> = {};
    entries.forEach((e, i) => {
      if (!allowed.has(e.field)) {
        fields[`${i}.field`] = [
          allowed.size
            ? `${JSON.stringify(e.field)} is not a profile field of this shop; use one of: ${[...allowed].join(', ')}`
            : `${JSON.stringify(e.field)} is not a profile field: this shop has none configured (PUT /v1/shop/profile)`,
        ];
      }
    });
    if (Object.keys(fields).length)
      throw new ValidationError(Object.values(fields).flat().join('; '), { fields });
    return entries.map((e) => ({ field: e.field, value: e.value }));
  }
}

/** What the audit trail compares of a vendor. */
function auditView(v: Vendor): Record<string, unknown> {
  return {
    vendorName: v.vendorName,
    commissionType: v.commissionType,
    commissionAmount: v.commissionAmount,
    active: isActiveVendor(v),
    address: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, v.address?.[f] ?? null])),
    profile: (v.profile ?? []).map((p) => ({ field: p.field, value: p.value })),
  };
}

function assertCommission(type: CommissionType, amount: number): void {
  const problem = commissionProblem(type, amount, 'commissionAmount');
  if (problem) throw new ValidationError(problem, { fields: { commissionAmount: [problem] } });
}

function addressSet(address: VendorAddressDto): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const f of ADDRESS_FIELDS) if (address[f] !== undefined) set[`address.${f}`] = address[f];
  return set;
}

function mergeProfile(
  current: VendorProfileEntry[] | undefined,
  entries: VendorProfileEntry[],
): VendorProfileEntry[] {
  const merged = new Map((current ?? []).map((p) => [p.field, p.value] as const));
  for (const e of entries) merged.set(e.field, e.value);
  return [...merged].map(([field, value]) => ({ field, value }));
}

function nameTaken(err: unknown, vendorName: string): unknown {
  if (isDuplicateKeyError(err))
    return new ConflictError(`A vendor named "${vendorName}" already exists`, { vendorName });
  return err;
}
