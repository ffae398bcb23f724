import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { CursorRows, CursorWindow } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { ModelOutbox, outboxOnInsert, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { User, UserRecord } from './user.schema';

/** What the per-request check of a vendor token needs. */
export interface UserSessionState {
  vendorId: Types.ObjectId;
  approved?: boolean;
  vendorActive?: boolean;
  credentialVersion?: number;
  permissions?: string[] | null;
}

@Injectable()
export class UsersRepository extends TenantRepository<User> {
  protected override readonly vendorField = 'vendorId';
  /** The audit outbox of user documents (AuditTrail.commit). */
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(User.name) model: Model<User>) {
    super(model);
    this.outbox = new ModelOutbox(model);
  }

  /** Throws the driver's duplicate-key error when the email is taken in this shop. */
  async create(
    scope: ShopScope,
    data: Pick<User, '_id' | 'vendorId' | 'email' | 'passwordHash' | 'vendorActive' | 'permissions'>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
  ): Promise<UserRecord> {
    const doc = await this.model.create({
      ...data,
      ...(stamp && event ? outboxOnInsert(stamp, event) : {}),
      type: 'vendor',
      approved: true,
      invitationDate: null,
      lastLoggedIn: null,
      ...this.owner(scope),
    });
    return withoutHash(doc.toObject());
  }

  findById(scope: ShopScope, id: string): Promise<UserRecord | null> {
    return this.findOneById(scope, id);
  }

  /** The only read that returns the hash: sign-in. */
  findForSignIn(scope: ShopScope, email: string): Promise<User | null> {
    return this.model.findOne(this.scoped(scope, { email })).select('+passwordHash').lean<User>().exec();
  }

  /** A v1 page of the shop's users, newest first (index shopId, createdAt, _id). */
  listPage(
    scope: ShopScope,
    page: { offset: number; limit: number },
  ): Promise<{ total: number; items: UserRecord[] }> {
    return this.offsetPage<UserRecord>(scope, {}, { createdAt: -1, _id: -1 }, page);
  }

  listByVendor(scope: ShopScope, vendorId: Types.ObjectId): Promise<UserRecord[]> {
    return this.model
      .find(this.scoped(scope, { vendorId }))
      .sort({ createdAt: -1, _id: -1 })
      .lean<UserRecord[]>()
      .exec();
  }

  /** The users of several vendors in one read (a page of vendors with their users). */
  listByVendors(scope: ShopScope, vendorIds: Types.ObjectId[]): Promise<UserRecord[]> {
    if (vendorIds.length === 0) return Promise.resolve([]);
    return this.model
      .find(this.scoped(scope, { vendorId: { $in: vendorIds } }))
      .sort({ createdAt: -1, _id: -1 })
      .lean<UserRecord[]>()
      .exec();
  }

  page(
    scope: ShopScope,
    window: CursorWindow,
    filter: { vendorId?: Types.ObjectId },
  ): Promise<CursorRows<UserRecord>> {
    const extra = filter.vendorId ? { vendorId: filter.vendorId } : {};
    return this.cursorPage<UserRecord>(scope, extra, window);
  }

  /**
   * Throws the driver's duplicate-key error when a new email is taken in this shop. The schema keeps
   * the hash out of the projection; it is also dropped from the result, whatever the store applied.
   */
  async update(
    scope: ShopScope,
    id: Types.ObjectId,
    set: Partial<User>,
    stamp: AuditStamp | null = null,
    event: AuditRecord | null = null,
    endSessions = false,
  ): Promise<UserRecord | null> {
    // The version rises in the same single-document write as the change that ends the sessions.
    const update = endSessions ? { $set: set, $inc: { credentialVersion: 1 } } : { $set: set };
    const doc = await this.model
      .findOneAndUpdate(this.scoped(scope, { _id: id }), withOutbox(update, stamp, event), {
        new: true,
        runValidators: true,
      })
      .lean<User>()
      .exec();
    return doc ? withoutHash(doc) : null;
  }

  async delete(scope: ShopScope, id: Types.ObjectId): Promise<boolean> {
    const res = await this.model.deleteOne(this.scoped(scope, { _id: id })).exec();
    return res.deletedCount === 1;
  }

  /**
   * Keeps the users' copy of their vendor's flag in step (vendor deactivated or reactivated). A
   * deactivation also raises their credential version: their tokens stay refused after a
   * reactivation (they sign in again).
   */
  async setVendorActive(scope: ShopScope, vendorId: Types.ObjectId, active: boolean): Promise<void> {
    const update = active
      ? { $set: { vendorActive: true } }
      : { $set: { vendorActive: false }, $inc: { credentialVersion: 1 } };
    await this.model.updateMany(this.scoped(scope, { vendorId }), update).exec();
  }

  /** The per-request check of a vendor token: one read by id inside the scope. */
  async sessionState(scope: ShopScope, userId: string): Promise<UserSessionState | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    return this.model
      .findOne(this.scoped(scope, { _id }), {
        _id: 0,
        vendorId: 1,
        approved: 1,
        vendorActive: 1,
        credentialVersion: 1,
        permissions: 1,
      })
      .lean<UserSessionState>()
      .exec();
  }
}

function withoutHash(doc: User): UserRecord {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { passwordHash, ...record } = doc;
  return record;
}
