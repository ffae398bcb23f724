import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { SetShopPlatformDto, ShopPlatformDto } from './dto/shop-platform.dto';
import { PlatformShop } from './platform/store-platform';
import { TokenCipher } from './platform/token-cipher';
import { ShopPlatformSettings, ShopsRepository } from '../shops/shops.repository';

/** Which store platform a shop fulfils through, and its (write-only, encrypted) access token. */
@Injectable()
export class ShopPlatformService {
  constructor(
    private readonly shops: ShopsRepository,
    private readonly cipher: TokenCipher,
  ) {}

  async get(scope: ShopScope): Promise<ShopPlatformDto> {
    return this.toResponse(await this.load(scope));
  }

  async set(scope: ShopScope, body: SetShopPlatformDto): Promise<ShopPlatformDto> {
    const current = await this.load(scope);
    if (body.platform === 'shopify' && !body.accessToken && !current.platformAccessTokenEnc) {
      throw new ValidationError('accessToken is required to use the shopify platform', {
        fields: { accessToken: ['accessToken is required to use the shopify platform'] },
      });
    }
    const sealed = body.accessToken ? this.cipher.encrypt(scope.shopId, body.accessToken) : undefined;
    const saved = await this.shops.setPlatform(scope, body.platform, sealed);
    if (!saved) throw new NotFoundError('Shop');
    return this.toResponse(saved);
  }

  /** The shop as the platform adapters need it, with the token decrypted. */
  async platformShop(scope: ShopScope): Promise<{ platform: string; shop: PlatformShop }> {
    const s = await this.load(scope);
    const accessToken = s.platformAccessTokenEnc
      ? this.cipher.decrypt(scope.shopId, s.platformAccessTokenEnc)
      : null;
    return { platform: s.platform, shop: { shopId: scope.shopId, domain: s.domain, accessToken } };
  }

  private async load(scope: ShopScope): Promise<ShopPlatformSettings> {
    const s = await this.shops.getPlatform(scope);
    if (!s) throw new NotFoundError('Shop');
    return s;
  }

  private toResponse(s: ShopPlatformSettings): ShopPlatformDto {
    return {
      platform: s.platform,
      accessTokenSet: !!s.platformAccessTokenEnc,
      updatedAt: s.updatedAt.toISOString(),
    };
  }
}
