import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { shopScope } from '../common/tenancy';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { UsersService } from '../users/users.service';

/**
 * Checks made on every request after the signature: the state a token was minted from must still
 * hold (merchant key not revoked / past its rotation grace; vendor user still there, approved, and
 * its vendor active). Shop tokens need no lookup.
 */
@Injectable()
export class CredentialChecks {
  constructor(
    private readonly merchantKeys: MerchantKeysService,
    private readonly users: UsersService,
  ) {}

  async assertActive(principal: Principal): Promise<void> {
    if (principal.kind === 'merchant') {
      await this.merchantKeys.assertUsable(shopScope(principal.shopId), principal.keyId!);
    } else if (principal.kind === 'vendor') {
      await this.users.assertSessionActive(
        shopScope(principal.shopId),
        principal.userId!,
        principal.vendorId!,
      );
    }
  }
}
