import { Injectable } from '@nestjs/common';
import { LocalStorePlatform } from './local-store-platform';
import { ShopifyStorePlatform } from './shopify-store-platform';
import { StorePlatform } from './store-platform';

/** Picks the adapter a shop's settings name (`local` when unset or unknown). */
@Injectable()
export class StorePlatforms {
  private readonly byName: Map<string, StorePlatform>;

  constructor(local: LocalStorePlatform, shopify: ShopifyStorePlatform) {
    this.byName = new Map<string, StorePlatform>([
      [local.name, local],
      [shopify.name, shopify],
    ]);
  }

  for(name: string | null | undefined): StorePlatform {
    return this.byName.get(name ?? 'local') ?? this.byName.get('local')!;
  }
}
