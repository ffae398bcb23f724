import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
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
    private readonly audit: AuditTrail,
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
    const stamp = this.audit.begin();
    const view = (platform: string, tokenSet: boolean) => ({ platform, accessTokenSet: tokenSet });
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.platform.update',
      { type: 'shop', id: scope.shopId },
      view(current.platform, !!current.platformAccessTokenEnc),
      view(body.platform, !!sealed || !!current.platformAccessTokenEnc),
      // A new token is recorded as a fact, never as a value (nor its ciphertext).
      sealed ? { after: { accessTokenReplaced: true } } : undefined,
    );
    const saved = await this.shops.setPlatform(scope, body.platform, sealed, stamp, event);
    if (!saved) throw new NotFoundError('Shop');
    await this.audit.commit(scope, this.shops.outbox, stamp, [event], [new Types.ObjectId(scope.shopId)]);
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
