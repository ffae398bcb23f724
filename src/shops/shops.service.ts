import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { DataCipher } from '../common/secrets/data-cipher';
import { randomBase62, sameDigest, sha256Hex } from '../common/crypto';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../common/errors';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { platformConfig, type PlatformConfig } from '../config/configuration';
import { normaliseDomain, shopDomainProblem } from './shop-domain';
import { Shop } from './shop.schema';
import { ShopsRepository } from './shops.repository';

export const SHOP_API_KEY_PREFIX = 'shpk_';

export interface CreatedShop {
  shopId: string;
  shopDomain: string;
  apiKey: string;
  webhookSecret: string;
}

// Re-exported: callers import it from here.
export { normaliseDomain };

@Injectable()
export class ShopsService {
  constructor(
    private readonly shops: ShopsRepository,
    @Inject(platformConfig.KEY) private readonly platform: PlatformConfig,
    private readonly cipher: DataCipher,
  ) {}

  async create(input: { domain: string; name?: string }): Promise<CreatedShop> {
    const domain = normaliseDomain(input.domain);
    // The domain is where the store-platform adapter will call: only the platform's hosts.
    const problem = shopDomainProblem(input.domain, this.platform.shopifyAllowedHosts);
    if (problem) throw new ValidationError(problem);
    if (await this.shops.findByDomain(domain))
      throw new ConflictError(`A shop with domain ${domain} already exists`, { shopDomain: domain });
    const apiKey = SHOP_API_KEY_PREFIX + randomBase62(40);
    const webhookSecret = 'whsec_' + randomBase62(40);
    // The secret is needed in clear to verify HMACs, so it is sealed (not hashed) under the data key.
    const _id = new Types.ObjectId();
    try {
      const shop = await this.shops.create({
        _id,
        domain,
        name: input.name ?? null,
        apiKeyHash: sha256Hex(apiKey),
        webhookSecret: this.cipher.seal('webhook-secret', String(_id), webhookSecret),
      });
      return { shopId: String(shop._id), shopDomain: shop.domain, apiKey, webhookSecret };
    } catch (err) {
      if (isDuplicateKeyError(err))
        throw new ConflictError(`A shop with domain ${domain} already exists`, { shopDomain: domain });
      throw err;
    }
  }

  /** Issues a new shop API key; the old key and every shop token minted from it stop working at once. */
  async rotateApiKey(domainInput: string): Promise<Omit<CreatedShop, 'webhookSecret'>> {
    const domain = normaliseDomain(domainInput);
    const apiKey = SHOP_API_KEY_PREFIX + randomBase62(40);
    const shop = await this.shops.setApiKeyHash(domain, sha256Hex(apiKey));
    if (!shop) throw new NotFoundError('Shop');
    return { shopId: String(shop._id), shopDomain: shop.domain, apiKey };
  }

  /** Wrong key and unknown domain answer alike, so neither can be probed. */
  async authenticate(apiKey: string, shopDomain: string): Promise<Shop> {
    const shop = await this.shops.findByDomain(normaliseDomain(shopDomain));
    const digest = sha256Hex(String(apiKey));
    if (!shop || !sameDigest(shop.apiKeyHash, digest))
      throw new UnauthorizedError('Invalid API key or shop domain');
    return shop;
  }

  /** A shop token minted from key version `kv` is still good: the shop exists and has not rotated its key since. */
  async assertKeyVersion(shopId: string, kv: number): Promise<void> {
    const current = await this.shops.keyVersion(shopId);
    if (current === null || current !== kv)
      throw new UnauthorizedError('This shop token was minted from a rotated API key; authenticate again');
  }

  async getById(shopId: string): Promise<Shop> {
    const shop = await this.shops.findById(shopId);
    if (!shop) throw new NotFoundError('Shop');
    return shop;
  }

  /**
   * The shop a webhook names, with its webhook secret in clear for the HMAC check. A value stored
   * before secrets were sealed is still clear text (`secrets:rotate` seals it); one that cannot be
   * opened (its key is gone) verifies nothing.
   */
  async getForWebhooks(domainInput: string): Promise<Pick<Shop, '_id' | 'domain' | 'webhookSecret'>> {
    const shop = await this.getByDomain(domainInput);
    const stored = shop.webhookSecret;
    const secret = DataCipher.isSealed(stored)
      ? this.cipher.open('webhook-secret', String(shop._id), stored)
      : stored;
    // An unopenable secret: a random one, so no signature matches (never an empty HMAC key).
    return { _id: shop._id, domain: shop.domain, webhookSecret: secret ?? randomBase62(40) };
  }

  async getByDomain(domainInput: string): Promise<Shop> {
    const shop = await this.shops.findByDomain(normaliseDomain(domainInput));
    if (!shop) throw new NotFoundError('Shop');
    return shop;
  }
}
