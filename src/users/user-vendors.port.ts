import type { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';

/** The vendor a portal user belongs to, as the users feature needs it. */
export interface UserVendor {
  _id: Types.ObjectId;
  vendorName: string;
  /** The vendor policy's answer (vendors/vendor-policy.ts): only users of active vendors sign in. */
  active: boolean;
}

/**
 * What the users feature needs of vendors: a port (an abstract class, so a DI token without
 * strings). The vendors feature implements it (VendorsService) and binds it for the whole app
 * (vendors/user-vendors.module.ts). Vendors depend on users (a vendor's users follow its active
 * flag and are listed with it); users never import vendors, so the modules form no cycle.
 */
export abstract class UserVendors {
  /** The shop's vendor with this id; null for an unknown or malformed id or another shop's vendor. */
  abstract findVendor(scope: ShopScope, vendorId: string): Promise<UserVendor | null>;

  /** The names of these vendors by id, in one read (unknown ids are absent). */
  abstract vendorNames(scope: ShopScope, ids: Types.ObjectId[]): Promise<Map<string, string>>;
}
