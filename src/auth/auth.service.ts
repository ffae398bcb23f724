import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ForbiddenError } from '../common/errors';
import { merchantKeyLookupId, MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { normaliseDomain, ShopsService } from '../shops/shops.service';
import { SignInLimiter } from './sign-in-limiter';
import { ShopTokenDto, V2TokenDto } from './dto/auth.dto';
import { TokenService } from './token.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly shops: ShopsService,
    private readonly merchantKeys: MerchantKeysService,
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

  /** Failed attempts count for the key's lookup id and this client address only (SignInLimiter). */
  async authenticateMerchant(apiKey: string, clientAddress: string): Promise<V2TokenDto> {
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

  private v2Token(principal: Principal): V2TokenDto {
    const { token, expiresIn } = this.tokens.issue(principal);
    return {
      token,
      expiresIn,
      scope: principal.kind as 'merchant' | 'vendor',
      shopDomain: principal.shopDomain,
    };
  }
}
