import type { UserDto, UserListItemDto, V2UserDto } from './dto/user-response.dto';
import { VENDOR_SCOPES } from '../common/auth/scopes';
import type { UserRecord } from './user.schema';

/** Field by field: whatever the document holds, a password hash can never reach a response. */
export function toUserResponse(u: UserRecord): UserDto {
  return {
    _id: String(u._id),
    email: u.email,
    type: 'vendor',
    vendorId: String(u.vendorId),
    approved: u.approved !== false,
    shopId: String(u.shopId),
    invitationDate: isoOrNull(u.invitationDate),
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt ?? u.createdAt),
    lastLoggedIn: isoOrNull(u.lastLoggedIn),
  };
}

/** V2 adds the vendor's name and the user's permissions (v1's shape stays the spec's). */
export function toV2UserResponse(u: UserRecord, vendorName: string | null): V2UserDto {
  return {
    ...toUserResponse(u),
    vendorName,
    // Never set (a user from before permissions): every scope, as the per-request check reads it.
    permissions: VENDOR_SCOPES.filter((s) => !u.permissions || u.permissions.includes(s)),
  };
}

export function toUserListItem(u: UserRecord, vendorName: string | null): UserListItemDto {
  return {
    userId: String(u._id),
    vendorId: String(u.vendorId),
    vendorName,
    createdAt: iso(u.createdAt),
    lastLoggedIn: isoOrNull(u.lastLoggedIn),
    email: u.email,
  };
}

function iso(d: Date | string | undefined): string {
  return d ? new Date(d).toISOString() : new Date(0).toISOString();
}

function isoOrNull(d: Date | string | null | undefined): string | null {
  return d ? new Date(d).toISOString() : null;
}
