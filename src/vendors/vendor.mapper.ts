import type { UserDto } from '../users/dto/user-response.dto';
import { ADDRESS_FIELDS } from './dto/vendor.dto';
import { VendorAddressResponseDto, VendorDto, VendorWithUsersDto } from './dto/vendor-response.dto';
import type { Vendor } from './vendor.schema';
import { isActiveVendor } from './vendor-policy';

export function toVendorResponse(v: Vendor): VendorDto {
  const address = {} as VendorAddressResponseDto;
  for (const f of ADDRESS_FIELDS) address[f] = v.address?.[f] ?? null;
  return {
    _id: String(v._id),
    vendorName: v.vendorName,
    commissionType: v.commissionType,
    commissionAmount: v.commissionAmount,
    active: isActiveVendor(v),
    shopId: String(v.shopId),
    address,
    profile: (v.profile ?? []).map((p) => ({ field: p.field, value: p.value })),
    createdAt: iso(v.createdAt),
    updatedAt: iso(v.updatedAt ?? v.createdAt),
  };
}

export function toVendorWithUsers(v: Vendor, users?: UserDto[]): VendorWithUsersDto {
  return users ? { ...toVendorResponse(v), users } : toVendorResponse(v);
}

function iso(d: Date | string | undefined): string {
  return d ? new Date(d).toISOString() : new Date(0).toISOString();
}
