import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ForbiddenError } from '../common/errors';
import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { ShopsService } from '../shops/shops.service';
import { ShopTokenDto, V2TokenDto } from './dto/auth.dto';
import { TokenService } from './token.service';

@Injectable()
export class AuthService {
  constructor(
    private readonly shops: ShopsService,
    private readonly merchantKeys: MerchantKeysService,
    private readonly tokens: TokenService,
  ) {}

  async authenticateShop(apiKey: string, shopDomain: string): Promise<ShopTokenDto> {
    const shop = await this.shops.authenticate(apiKey, shopDomain);
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

  async authenticateMerchant(apiKey: string): Promise<V2TokenDto> {
    const key = await this.merchantKeys.verifyKey(apiKey);
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
