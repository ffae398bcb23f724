import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { anyOf, valueOrAny } from '../database/query-filters';
import type { UnionPart } from '../database/read-together';
import { ShopScope, toObjectId } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { Vendor, VendorPayoutSettings } from './vendor.schema';

/** What other features read of a vendor: its name, commission terms and active flag. */
export type VendorSummary = Pick<
  Vendor,
  '_id' | 'vendorName' | 'commissionType' | 'commissionAmount' | 'active'
>;
const SUMMARY = { vendorName: 1, commissionType: 1, commissionAmount: 1, active: 1 } as const;

/** The only repository of the vendors collection; other features read vendors through it. */
/**
 * Several vendors in name order: unique in the shop, so a total order (database/store-ranges.ts).
 * MongoDB: reads that order off the unique (shop, name) index.
 */
const BY_NAME = { vendorName: 1 } as const;

@Injectable()
export class VendorsRepository extends TenantRepository<Vendor> {
  /** The audit outbox of vendor documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(Vendor.name) model: Model<Vendor>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /**
   * Throws the driver's duplicate-key error when the name is taken (unique shopId + vendorName).
   * The audit event (if any) is stored in the new document's outbox, in the same insert.
   */
  async create(
    scope: ShopScope,
    data: Pick<Vendor, '_id' | 'vendorName' | 'commissionType' | 'commissionAmount'>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<Vendor> {
    const outbox = stamp && event ? outboxOnInsert(stamp, event) : {};
    const doc = await this.model.create({ ...data, active: true, ...outbox, ...this.owner(scope) });
    return doc.toObject();
  }

  /** Null for an unknown id, a malformed one, or another shop's vendor. */
  findById(scope: ShopScope, id: string | Types.ObjectId): Promise<Vendor | null> {
    return this.findOneById(scope, id);
  }

  /** One read for many ids (names for lists, terms for pricing, payees for payouts). */
  findSummaries(scope: ShopScope, ids: Array<string | Types.ObjectId>): Promise<VendorSummary[]> {
    const oids = [...new Set(ids.map(String))].map(toObjectId).filter((x): x is Types.ObjectId => !!x);
    if (oids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: oids } }), SUMMARY)
      .lean<VendorSummary[]>()
      .exec();
  }

  /**
   * The vendors with these stored (lowercased) names or these ids, in name order, as a part of a
   * combined read (database/read-together.ts; null: none wanted).
   */
  namesOrIdsPart(
    tag: string,
    scope: ShopScope,
    names: string[],
    ids: Array<string | Types.ObjectId>,
  ): UnionPart | null {
    const wanted = namesOrIds(names, ids);
    return wanted ? this.readPart(tag, scope, wanted, SUMMARY, BY_NAME) : null;
  }

  /** The vendors with these stored (lowercased) names, in one read. */
  findByNames(scope: ShopScope, names: string[]): Promise<VendorSummary[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { vendorName: { $in: names } }), SUMMARY)
      .sort(BY_NAME)
      .lean<VendorSummary[]>()
      .exec();
  }

  /** Every vendor of the shop, active or not, by name (the payout reconcile). */
  listAll(scope: ShopScope): Promise<VendorSummary[]> {
    return this.model
      .find(this.scoped(scope, { active: { $in: [true, false] } }), SUMMARY)
      .sort({ vendorName: 1 })
      .lean<VendorSummary[]>()
      .exec();
  }

  listActive(scope: ShopScope): Promise<VendorSummary[]> {
    return this.model
      .find(this.scoped(scope, { active: true }), SUMMARY)
      .sort({ vendorName: 1 })
      .lean<VendorSummary[]>()
      .exec();
  }

  /**
   * Throws the driver's duplicate-key error on a rename onto an existing name. The audit event (if
   * any) enters the document's outbox in the same update.
   */
  update(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Record<string, unknown>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<Vendor | null> {
    return this.model
      .findOneAndUpdate(this.scoped(scope, { _id: id }), withOutbox({ $set: set }, stamp, event), {
        new: true,
        runValidators: true,
      })
      .lean<Vendor>()
      .exec();
  }

  /** GET /v1/vendors: one page by name (unique per shop, so the order is stable), plus the total. */
  listPage(
    scope: ShopScope,
    filter: { active?: boolean },
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: Vendor[] }> {
    return this.offsetPage<Vendor>(
      scope,
      { active: valueOrAny(filter.active, [true, false]) },
      { vendorName: 1 },
      page,
    );
  }

  page(scope: ShopScope, window: CursorWindow, filter: { active?: boolean }): Promise<CursorRows<Vendor>> {
    return this.cursorPage(scope, { active: valueOrAny(filter.active, [true, false]) }, window);
  }

  /** The payout settings of several vendors (a scheduled run's vendors), by id. */
  payoutSettingsOf(
    scope: ShopScope,
    ids: Types.ObjectId[],
  ): Promise<Array<Pick<Vendor, '_id' | 'vendorName' | 'payoutSettings'>>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { _id: { $in: ids } }), { vendorName: 1, payoutSettings: 1 })
      .lean<Array<Pick<Vendor, '_id' | 'vendorName' | 'payoutSettings'>>>()
      .exec();
  }

  /** Replaces a vendor's payout settings (DESIGN §15), audited in the same write; null: not the shop's. */
  setPayoutSettings(
    scope: ShopScope,
    id: Types.ObjectId,
    settings: VendorPayoutSettings,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<Vendor | null> {
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id }),
        withOutbox({ $set: { payoutSettings: settings } }, stamp, event),
        { new: true },
      )
      .lean<Vendor>()
      .exec();
  }
}

/** The filter of the vendors with these names or ids (null: none wanted). */
function namesOrIds(names: string[], ids: Array<string | Types.ObjectId>): Record<string, unknown> | null {
  const oids = [...new Set(ids.map(String))].map(toObjectId).filter((x): x is Types.ObjectId => !!x);
  const wanted = [
    ...(names.length > 0 ? [{ vendorName: { $in: names } }] : []),
    ...(oids.length > 0 ? [{ _id: { $in: oids } }] : []),
  ];
  if (wanted.length === 0) return null;
  return wanted.length === 1 ? wanted[0] : anyOf(wanted);
}
