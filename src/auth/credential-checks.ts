import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { shopScope } from '../common/tenancy';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { ShopsService } from '../shops/shops.service';
import { UserSessionsService } from '../users/user-sessions.service';
import { VendorApiKeysService } from '../vendor-keys/vendor-api-keys.service';

/**
 * Checks made on every request after the signature, one database lookup each and no in-process
 * cache (a revocation or rotation is refused on the very next request): the state a token was
 * minted from must still hold — shop key not rotated since (`kv`); merchant key not revoked / past
 * its rotation grace; vendor user still there, approved, its vendor active, and its credential
 * version (`cv`) unchanged since (no password or email change, un-approval or deactivation since);
 * vendor API key not revoked and its vendor active. A vendor token's `permissions` are set here
 * from the same read: the key's scopes, or the user's current permissions.
 */
@Injectable()
export class CredentialChecks {
  constructor(
    private readonly merchantKeys: MerchantKeysService,
    private readonly users: UserSessionsService,
    private readonly shops: ShopsService,
    private readonly vendorKeys: VendorApiKeysService,
  ) {}

  async assertActive(principal: Principal): Promise<void> {
    if (principal.kind === 'shop') {
      await this.shops.assertKeyVersion(principal.shopId, principal.keyVersion ?? 0);
    } else if (principal.kind === 'merchant') {
      await this.merchantKeys.assertUsable(shopScope(principal.shopId), principal.keyId!);
    } else if (principal.kind === 'vendor' && principal.keyId) {
      principal.permissions = await this.vendorKeys.assertUsable(
        shopScope(principal.shopId, principal.vendorId!),
        principal.keyId,
      );
    } else if (principal.kind === 'vendor') {
      principal.permissions = await this.users.assertSessionActive(
        shopScope(principal.shopId),
        principal.userId!,
        principal.vendorId!,
        principal.credentialVersion ?? 0,
      );
    }
  }
}
