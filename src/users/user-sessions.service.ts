import { Injectable } from '@nestjs/common';
import { isVendorScope, type VendorScope } from '../common/auth/scopes';
import { Clock } from '../common/clock/clock';
import { UnauthorizedError } from '../common/errors';
import { ShopScope } from '../common/tenancy';
import { PasswordHasher } from './password-hasher';
import { UserVendors } from './user-vendors.port';
import { UsersRepository } from './users.repository';

/** A successful vendor sign-in. */
export interface SignedInUser {
  userId: string;
  vendorId: string;
  /** What the vendor token carries (`cv`). */
  credentialVersion: number;
}

/** A portal user's sign-in and the per-request check of its session (the auth feature's calls). */
@Injectable()
export class UserSessionsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly vendors: UserVendors,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /**
   * Email + password sign-in of an approved user of an active vendor; null for every failure alike
   * (unknown shop or email, wrong password, unapproved user, inactive vendor), in about the same
   * time, so callers cannot tell which accounts exist. Records `lastLoggedIn`.
   */
  async authenticate(scope: ShopScope | null, email: string, password: string): Promise<SignedInUser | null> {
    const user = scope ? await this.users.findForSignIn(scope, email) : null;
    if (!scope || !user) return this.hasher.verifyNothing(password).then(() => null);
    if (!(await this.hasher.verify(user.passwordHash, password))) return null;
    if (user.approved === false) return null;
    const vendor = await this.vendors.findVendor(scope, String(user.vendorId));
    const vendorActive = vendor !== null && vendor.active;
    // Also repairs the user's copy of the vendor flag, should a (de)activation have been cut short.
    await this.users.update(scope, user._id, { lastLoggedIn: this.clock.now(), vendorActive });
    if (!vendorActive) return null;
    return {
      userId: String(user._id),
      vendorId: String(user.vendorId),
      credentialVersion: user.credentialVersion ?? 0,
    };
  }

  /**
   * Every request with a vendor token (renewal included): its user must still exist in the shop,
   * belong to the token's vendor, be approved, its vendor be active, and its credential version be
   * the token's (no password or email change, un-approval or deactivation since). One read by id,
   * which also answers the user's current permissions (undefined for a user from before
   * permissions: every scope), so a change of permissions holds from the next request on.
   */
  async assertSessionActive(
    scope: ShopScope,
    userId: string,
    vendorId: string,
    credentialVersion: number,
  ): Promise<VendorScope[] | undefined> {
    const state = await this.users.sessionState(scope, userId);
    if (
      !state ||
      String(state.vendorId) !== vendorId ||
      state.approved === false ||
      state.vendorActive === false ||
      (state.credentialVersion ?? 0) !== credentialVersion
    ) {
      throw new UnauthorizedError('This vendor token is no longer valid; sign in again');
    }
    return userPermissions(state.permissions);
  }
}

/** A user's stored permissions, known scopes only; undefined (every scope) when never set. */
export function userPermissions(stored: readonly string[] | null | undefined): VendorScope[] | undefined {
  if (stored === undefined || stored === null) return undefined;
  return stored.filter(isVendorScope);
}
