import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { shopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, requireString } from './cli-command';

async function scopeOf(shops: ShopsService, domain: string) {
  const shop = await shops.getByDomain(domain);
  return { scope: shopScope(String(shop._id)), shop };
}

export const shopCommands: CliCommand[] = [
  {
    name: 'shop:create',
    usage: 'shop:create --domain D [--name N]',
    run: async (app, args) => {
      const name = typeof args.name === 'string' ? args.name : undefined;
      return { ...(await app.get(ShopsService).create({ domain: requireString(args, 'domain'), name })) };
    },
  },
  {
    name: 'shop:rotate-key',
    usage: 'shop:rotate-key --domain D',
    run: async (app, args) => ({
      ...(await app.get(ShopsService).rotateApiKey(requireString(args, 'domain'))),
    }),
  },
  {
    name: 'merchant-key:create',
    usage: 'merchant-key:create --domain D [--name N]',
    run: async (app, args) => {
      const { scope, shop } = await scopeOf(app.get(ShopsService), requireString(args, 'domain'));
      const name = typeof args.name === 'string' ? args.name : undefined;
      return { shopDomain: shop.domain, ...(await app.get(MerchantKeysService).create(scope, name)) };
    },
  },
  {
    name: 'merchant-key:rotate',
    usage: 'merchant-key:rotate --domain D --id KEY_ID',
    run: async (app, args) => {
      const { scope, shop } = await scopeOf(app.get(ShopsService), requireString(args, 'domain'));
      return {
        shopDomain: shop.domain,
        ...(await app.get(MerchantKeysService).rotate(scope, requireString(args, 'id'))),
      };
    },
  },
  {
    name: 'merchant-key:revoke',
    usage: 'merchant-key:revoke --domain D --id KEY_ID',
    run: async (app, args) => {
      const { scope, shop } = await scopeOf(app.get(ShopsService), requireString(args, 'domain'));
      return {
        shopDomain: shop.domain,
        ...(await app.get(MerchantKeysService).revoke(scope, requireString(args, 'id'))),
      };
    },
  },
];
