import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { nextOffset, readCursorPage } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { vendorInvitation } from '../mail/invitation';
import { MailService } from '../mail/mail.service';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { VENDOR_SCOPES, type VendorScope } from '../common/auth/scopes';
import { CreateUserV2Dto, PatchUserDto, ReplaceUserCredentialsDto, UserListQueryDto } from './dto/user.dto';
import {
  DeletedUserDto,
  UserDto,
  UserListDto,
  UserMessageDto,
  UsersPageDto,
  V2UserDto,
} from './dto/user-response.dto';
import { PasswordHasher } from './password-hasher';
import { toUserListItem, toUserResponse, toV2UserResponse } from './user.mapper';
import { User, UserRecord } from './user.schema';
import { UserVendor, UserVendors } from './user-vendors.port';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly vendors: UserVendors,
    private readonly hasher: PasswordHasher,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  /**
   * Creates an approved user of one of the shop's vendors. With `sendEmail` the invitation (with the
   * plaintext password, as the spec asks) is sent once the user exists; a failed send does not undo
   * the user: the answer says so and `invitationDate` stays null.
   */
  async create(scope: ShopScope, dto: CreateUserV2Dto, shopDomain: string): Promise<UserMessageDto> {
    const { message, user } = await this.createRecord(scope, dto, shopDomain);
    return { message, user: toUserResponse(user) };
  }

  async createV2(scope: ShopScope, dto: CreateUserV2Dto, shopDomain: string): Promise<V2UserDto> {
    return this.withVendorName(scope, (await this.createRecord(scope, dto, shopDomain)).user);
  }

  private async createRecord(
    scope: ShopScope,
    dto: CreateUserV2Dto,
    shopDomain: string,
  ): Promise<{ message: string; user: UserRecord }> {
    const vendor = await this.vendorOf(scope, dto.vendorId);
    const _id = new Types.ObjectId();
    const stamp = this.audit.begin();
    // The password never enters the trail (nor does its hash).
    const event = this.audit.created(
      scope,
      stamp,
      'user.create',
      { type: 'user', id: _id },
      {
        email: dto.email,
        vendorId: vendor._id,
        approved: true,
        ...(dto.permissions ? { permissions: inCatalogueOrder(dto.permissions) } : {}),
      },
    );
    let user: UserRecord;
    try {
      user = await this.users.create(
        scope,
        {
          _id,
          vendorId: vendor._id,
          email: dto.email,
          passwordHash: await this.hasher.hash(dto.password),
          vendorActive: vendor.active,
          ...(dto.permissions ? { permissions: inCatalogueOrder(dto.permissions) } : {}),
        },
        stamp,
        event,
      );
    } catch (err) {
      throw emailTaken(err, dto.email);
    }
    await this.audit.commit(scope, this.users.outbox, stamp, [event], 'all');
    if (!dto.sendEmail) return { message: 'User created', user };
    const sent = await this.mail.send(
      vendorInvitation({
        shopDomain,
        vendorName: vendor.vendorName,
        email: dto.email,
        password: dto.password,
      }),
    );
    if (!sent)
      return {
        message: 'User created, but the invitation email could not be sent',
        user,
      };
    const invited = await this.users.update(scope, user._id, { invitationDate: this.clock.now() });
    return { message: 'User created and invitation email sent', user: invited ?? user };
  }

  /** v1 list, one page at a time (limit 1–250, default 100): a shop's users are not bounded. */
  async list(scope: ShopScope, page: { offset: number; limit: number }): Promise<UserListDto> {
    const { total, items } = await this.users.listPage(scope, page);
    const names = await this.vendors.vendorNames(
      scope,
      items.map((u) => u.vendorId),
    );
    return {
      total,
      nextOffset: nextOffset(page, total),
      users: items.map((u) => toUserListItem(u, names.get(String(u.vendorId)) ?? null)),
    };
  }

  async page(scope: ShopScope, query: UserListQueryDto): Promise<UsersPageDto> {
    const vendorId = query.vendorId ? (toObjectId(query.vendorId) ?? undefined) : undefined;
    const page = await readCursorPage(
      query,
      this.auth.cursorKey,
      `users:${scope.shopId}`,
      (window) => this.users.page(scope, window, { vendorId }),
      (u) => ({ t: new Date(u.createdAt).getTime(), id: String(u._id) }),
    );
    const names = await this.vendors.vendorNames(
      scope,
      page.items.map((u) => u.vendorId),
    );
    return {
      users: page.items.map((u) => toV2UserResponse(u, names.get(String(u.vendorId)) ?? null)),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }

  async get(scope: ShopScope, id: string): Promise<UserDto> {
    return toUserResponse(await this.getRecord(scope, id));
  }

  async getV2(scope: ShopScope, id: string): Promise<V2UserDto> {
    return this.withVendorName(scope, await this.getRecord(scope, id));
  }

  /** The users of each of these vendors (by vendor id), in one read. */
  async listForVendors(scope: ShopScope, vendorIds: Types.ObjectId[]): Promise<Map<string, UserDto[]>> {
    const byVendor = new Map<string, UserDto[]>(vendorIds.map((id) => [String(id), []]));
    for (const u of await this.users.listByVendors(scope, vendorIds))
      byVendor.get(String(u.vendorId))?.push(toUserResponse(u));
    return byVendor;
  }

  async listForVendor(scope: ShopScope, vendorId: Types.ObjectId): Promise<UserDto[]> {
    return (await this.users.listByVendor(scope, vendorId)).map(toUserResponse);
  }

  /** v1 PUT: a new email and password together. */
  async replaceCredentials(scope: ShopScope, id: string, dto: ReplaceUserCredentialsDto): Promise<UserDto> {
    return toUserResponse(await this.change(scope, id, dto));
  }

  async patch(scope: ShopScope, id: string, dto: PatchUserDto): Promise<V2UserDto> {
    return this.withVendorName(scope, await this.change(scope, id, dto));
  }

  /**
   * Deletes the user: its sign-in and tokens stop at once (the per-request check finds no user).
   * The deletion event is stored as pending first (the document and its outbox go with the delete).
   */
  async delete(scope: ShopScope, id: string): Promise<DeletedUserDto> {
    const current = await this.getRecord(scope, id);
    const pending = await this.audit.intendDelete(
      scope,
      this.audit.begin(),
      'user.delete',
      { type: 'user', id: current._id },
      auditView(current),
      'users',
    );
    const deleted = await this.users.delete(scope, current._id);
    await this.audit.finishDelete(scope, pending, deleted);
    if (!deleted) throw new NotFoundError('User');
    return { _id: String(current._id), deleted: true };
  }

  async setVendorActive(scope: ShopScope, vendorId: Types.ObjectId, active: boolean): Promise<void> {
    await this.users.setVendorActive(scope, vendorId, active);
  }

  private async getRecord(scope: ShopScope, id: string): Promise<UserRecord> {
    const user = await this.users.findById(scope, id);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  private async change(scope: ShopScope, id: string, dto: PatchUserDto): Promise<UserRecord> {
    const current = await this.getRecord(scope, id);
    const set: Partial<User> = {};
    if (dto.email !== undefined && dto.email !== current.email) set.email = dto.email;
    if (dto.password !== undefined) set.passwordHash = await this.hasher.hash(dto.password);
    if (dto.approved !== undefined) set.approved = dto.approved;
    // Permissions are read on every request of the user's tokens: no session needs to end.
    if (dto.permissions !== undefined) set.permissions = inCatalogueOrder(dto.permissions);
    if (Object.keys(set).length === 0) return current;
    const stamp = this.audit.begin();
    const before = auditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'user.update',
      { type: 'user', id: current._id },
      before,
      {
        ...before,
        ...(set.email !== undefined ? { email: set.email } : {}),
        ...(set.approved !== undefined ? { approved: set.approved } : {}),
        ...(set.permissions !== undefined ? { permissions: set.permissions } : {}),
      },
      // A new password is recorded as a fact, never as a value.
      set.passwordHash !== undefined ? { after: { passwordChanged: true } } : undefined,
    );
    // A new password or email, or un-approval, ends every session the user had.
    const endSessions = set.passwordHash !== undefined || set.email !== undefined || set.approved === false;
    let updated: UserRecord | null;
    try {
      updated = await this.users.update(scope, current._id, set, stamp, event, endSessions);
    } catch (err) {
      throw emailTaken(err, dto.email ?? current.email);
    }
    if (!updated) throw new NotFoundError('User');
    await this.audit.commit(scope, this.users.outbox, stamp, [event], [updated._id]);
    return updated;
  }

  private async withVendorName(scope: ShopScope, user: UserRecord): Promise<V2UserDto> {
    const names = await this.vendors.vendorNames(scope, [user.vendorId]);
    return toV2UserResponse(user, names.get(String(user.vendorId)) ?? null);
  }

  /** A vendor id given in a body: unknown or another shop's → 422, not 404. */
  private async vendorOf(scope: ShopScope, vendorId: string): Promise<UserVendor> {
    const vendor = await this.vendors.findVendor(scope, vendorId);
    if (!vendor) {
      const message = `vendorId ${JSON.stringify(vendorId)} is not a vendor of this shop`;
      throw new ValidationError(message, { fields: { vendorId: [message] } });
    }
    return vendor;
  }
}

/** What the audit trail compares of a user (never the password or its hash). */
function auditView(u: UserRecord): Record<string, unknown> {
  return {
    email: u.email,
    vendorId: u.vendorId,
    approved: u.approved !== false,
    permissions: u.permissions ?? [...VENDOR_SCOPES],
  };
}

/** Scopes in the catalogue's order, each once (what is stored and shown). */
function inCatalogueOrder(scopes: readonly string[]): VendorScope[] {
  return VENDOR_SCOPES.filter((s) => scopes.includes(s));
}

function emailTaken(err: unknown, email: string): unknown {
  if (isDuplicateKeyError(err))
    return new ConflictError(`A user with email ${email} already exists in this shop`, { email });
  return err;
}
