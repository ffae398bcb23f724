import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ForbiddenError } from '../common/errors';
import { merchantKeyLookupId, MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { normaliseDomain, ShopsService } from '../shops/shops.service';
import { isVendorKey, parseVendorKey } from '../vendor-keys/vendor-key-format';
import { VendorApiKeysService } from '../vendor-keys/vendor-api-keys.service';
import { SignInLimiter } from './sign-in-limiter';
import { ShopTokenDto, V2TokenDto } from './dto/auth.dto';
import { TokenService } from './token.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly shops: ShopsService,
    private readonly merchantKeys: MerchantKeysService,
    private readonly vendorKeys: VendorApiKeysService,
    private readonly tokens: TokenService,
    private readonly limiter: SignInLimiter,
  ) {}

  /** Failed attempts count for the shop domain and this client address only (SignInLimiter). */
  async authenticateShop(apiKey: string, shopDomain: string, clientAddress: string): Promise<ShopTokenDto> {
    const account = `shop:${normaliseDomain(shopDomain)}`;
    const shop = await this.limiter.attempt(account, clientAddress, () =>
      this.shops.authenticate(apiKey, shopDomain),
    );
    const { token } = this.tokens.issue({
      kind: 'shop',
      shopId: String(shop._id),
      shopDomain: shop.domain,
      keyVersion: shop.keyVersion ?? 0,
    });
    return { token, shopDomain: shop.domain };
  }

  /** The strategy has already checked the token's key version against the shop's: a rotated key cannot be renewed. */
  refreshShop(principal: Principal): ShopTokenDto {
    const { token } = this.tokens.issue({
      kind: 'shop',
      shopId: principal.shopId,
      shopDomain: principal.shopDomain,
      keyVersion: principal.keyVersion ?? 0,
    });
    return { token, shopDomain: principal.shopDomain };
  }

  /**
   * `POST /authenticate`: a merchant key (`mk_live_…`) or a vendor API key (`vk_live_…`), told apart
   * by prefix. Failed attempts count for the key's lookup id and this client address only.
   */
  authenticateKey(apiKey: string, clientAddress: string): Promise<V2TokenDto> {
    return isVendorKey(apiKey)
      ? this.authenticateVendorKey(apiKey, clientAddress)
      : this.authenticateMerchant(apiKey, clientAddress);
  }

  /** A vendor token (24 h) naming its key (`kid`); its permissions are the key's scopes. */
  private async authenticateVendorKey(apiKey: string, clientAddress: string): Promise<V2TokenDto> {
    const lookupId = parseVendorKey(apiKey)?.lookupId ?? null;
    const key = await this.limiter.attempt(lookupId && `vendor-key:${lookupId}`, clientAddress, () =>
      this.vendorKeys.verifyKey(apiKey),
    );
    const shop = await this.shops.getById(key.shopId);
    return this.v2Token({
      kind: 'vendor',
      shopId: String(shop._id),
      shopDomain: shop.domain,
      vendorId: key.vendorId,
      keyId: key.keyId,
      permissions: key.scopes,
    });
  }

  /** Failed attempts count for the key's lookup id and this client address only (SignInLimiter). */
  private async authenticateMerchant(apiKey: string, clientAddress: string): Promise<V2TokenDto> {
    const lookupId = merchantKeyLookupId(apiKey);
    const key = await this.limiter.attempt(lookupId && `merchant:${lookupId}`, clientAddress, () =>
      this.merchantKeys.verifyKey(apiKey),
    );
    const shop = await this.shops.getById(String(key.shopId));
    return this.v2Token({
      kind: 'merchant',
      shopId: String(shop._id),
      shopDomain: shop.domain,
      keyId: String(key._id),
    });
  }

  /**
   * Renews the caller's own merchant or vendor token. The strategy has already re-checked its key
   * or user on this request (one lookup), so renewal adds none.
   */
  refreshV2(principal: Principal): V2TokenDto {
    if (principal.kind === 'shop')
      throw new ForbiddenError('Shop tokens are renewed at POST /v1/refresh-token');
    return this.v2Token(principal);
  }

  /** A vendor key token also answers its permissions, mode and vendor (DESIGN §12). */
  private v2Token(principal: Principal): V2TokenDto {
    const { token, expiresIn } = this.tokens.issue(principal);
    const fromVendorKey = principal.kind === 'vendor' && principal.keyId !== undefined;
    return {
      token,
      expiresIn,
      scope: principal.kind as 'merchant' | 'vendor',
      ...(fromVendorKey ? { permissions: principal.permissions ?? [] } : {}),
      shopDomain: principal.shopDomain,
      ...(fromVendorKey ? { mode: 'live' as const, vendorId: principal.vendorId } : {}),
    };
  }
}
