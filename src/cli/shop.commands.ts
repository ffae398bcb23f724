import { MerchantKeysService } from '../merchant-keys/merchant-keys.service';
import { shopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, CliOption, optionalString, requireString } from './cli-command';

async function scopeOf(shops: ShopsService, domain: string) {
  const shop = await shops.getByDomain(domain);
  return { scope: shopScope(String(shop._id)), shop };
}

const DOMAIN: CliOption = {
  flags: '--domain <domain>',
  description: "the shop's domain, e.g. demo.myshopify.com",
  required: true,
};
const KEY_ID: CliOption = { flags: '--id <keyId>', description: 'the merchant key id', required: true };

export const shopCommands: CliCommand[] = [
  {
    name: 'shop:create',
    description:
      'Create a shop; prints {shopId, shopDomain, apiKey, webhookSecret} (the key is shown only here).',
    options: [DOMAIN, { flags: '--name <name>', description: 'display name' }],
    run: async (app, args) => ({
      ...(await app
        .get(ShopsService)
        .create({ domain: requireString(args, 'domain'), name: optionalString(args, 'name') })),
    }),
  },
  {
    name: 'shop:rotate-key',
    description: "Replace the shop's API key; the old key stops working at once.",
    options: [DOMAIN],
    run: async (app, args) => ({
      ...(await app.get(ShopsService).rotateApiKey(requireString(args, 'domain'))),
    }),
  },
  {
    name: 'merchant-key:create',
    description: 'Create a merchant key for the V2 API; prints {shopDomain, id, key, createdAt}.',
    options: [DOMAIN, { flags: '--name <name>', description: 'what the key is for' }],
    run: async (app, args) => {
      const { scope, shop } = await scopeOf(app.get(ShopsService), requireString(args, 'domain'));
      const name = optionalString(args, 'name');
      return { shopDomain: shop.domain, ...(await app.get(MerchantKeysService).create(scope, name)) };
    },
  },
  {
    name: 'merchant-key:rotate',
    description: 'Issue a new key in place of a merchant key; the old one works 24 h more.',
    options: [DOMAIN, KEY_ID],
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
    description: 'Revoke a merchant key; its tokens are refused at once.',
    options: [DOMAIN, KEY_ID],
    run: async (app, args) => {
      const { scope, shop } = await scopeOf(app.get(ShopsService), requireString(args, 'domain'));
      return {
        shopDomain: shop.domain,
        ...(await app.get(MerchantKeysService).revoke(scope, requireString(args, 'id'))),
      };
    },
  },
];
