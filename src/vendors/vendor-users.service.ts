import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { UsersService } from '../users/users.service';
import { VendorApiKeysService } from '../vendor-keys/vendor-api-keys.service';
import { nextOffset } from '../common/pagination';
import { PatchVendorDto, VendorV1ListQueryDto } from './dto/vendor.dto';
import { VendorDto, VendorListDto, VendorReadDto } from './dto/vendor-response.dto';
import { toVendorWithUsers } from './vendor.mapper';
import { VendorsService } from './vendors.service';

/** Rules that span a vendor and its portal users (the users feature never calls back into vendors). */
@Injectable()
export class VendorUsersService {
  constructor(
    private readonly vendors: VendorsService,
    private readonly users: UsersService,
    private readonly keys: VendorApiKeysService,
  ) {}

  /** GET /v1/vendors/{id}: `{vendor: [record]}`, with its users (never a password) when asked. */
  async read(scope: ShopScope, vendorId: string, withUsers: boolean): Promise<VendorReadDto> {
    const vendor = await this.vendors.getRecord(scope, vendorId);
    const users = withUsers ? await this.users.listForVendor(scope, vendor._id) : undefined;
    return { vendor: [toVendorWithUsers(vendor, users)] };
  }

  /** GET /v1/vendors: a page by name, each vendor with its users when asked (one more read for the page). */
  async list(scope: ShopScope, q: VendorV1ListQueryDto): Promise<VendorListDto> {
    const active = q.active === undefined ? undefined : q.active === 'true';
    const { total, items } = await this.vendors.listPage(scope, { active }, q);
    const users =
      q.users === 'true'
        ? await this.users.listForVendors(
            scope,
            items.map((v) => v._id),
          )
        : null;
    return {
      total,
      nextOffset: nextOffset(q, total),
      vendors: items.map((v) => toVendorWithUsers(v, users ? (users.get(String(v._id)) ?? []) : undefined)),
    };
  }

  /**
   * V2 PATCH. When `active` is given the vendor's users and API keys follow it, so a deactivated vendor's tokens
   * are refused from the next request on (the vendor first, so sign-in refuses at once).
   */
  async patch(
    scope: ShopScope,
    vendorId: string,
    dto: PatchVendorDto,
    action: 'vendor.update' | 'vendor.deactivate' = 'vendor.update',
  ): Promise<VendorDto> {
    const vendor = await this.vendors.update(scope, vendorId, dto, action);
    if (dto.active !== undefined) {
      await this.users.setVendorActive(scope, new Types.ObjectId(vendor._id), dto.active);
      await this.keys.setVendorActive(scope, vendor._id, dto.active);
    }
    return vendor;
  }

  /** V2 DELETE: deactivation. The vendor and its data stay; it leaves the commission list and cannot sign in. */
  deactivate(scope: ShopScope, vendorId: string): Promise<VendorDto> {
    return this.patch(scope, vendorId, { active: false }, 'vendor.deactivate');
  }
}
