import type { ShopScope } from '../../src/common/tenancy';
import type {
  PricingInputs,
  PricingInputsRepository,
  PricingInputsWanted,
} from '../../src/line-items/pricing-inputs.repository';
import type { StoredSku } from '../../src/commissions/sku-upload';
import type { StoredLadderRule } from '../../src/commissions/commission-rule-reads.repository';
import type { VendorSummary } from '../../src/vendors/vendors.repository';
import { FakeShops } from './fake';
import { FakeSkuCommissionsRepository, FakeVendorsRepository } from './vendors.fake';

/** The pricing read over the fakes of its collections (each part read as its repository would). */
export class FakePricingInputs implements Pick<PricingInputsRepository, 'read'> {
  constructor(
    readonly shops: FakeShops = new FakeShops(),
    readonly vendors: FakeVendorsRepository = new FakeVendorsRepository(),
    readonly skus: FakeSkuCommissionsRepository = new FakeSkuCommissionsRepository(),
    /** The shop's webhook endpoints, when the read asks for them. */
    readonly endpoints: Array<Record<string, unknown>> = [],
    /** The shop's stored products' types and commission rules (one shop per fake). */
    readonly products: Array<{ productId: string; productType: string | null }> = [],
    readonly rules: StoredLadderRule[] = [],
  ) {}

  async read(scope: ShopScope, want: PricingInputsWanted): Promise<PricingInputs> {
    const vendors = this.vendors.namesOrIdsPart('vendors', scope, want.vendorNames, want.vendorIds);
    const skus = this.skus.skusPart('skus', scope, want.skus);
    return {
      shop: await this.shops.getById(scope.shopId),
      vendors: (vendors?.rows() ?? []) as unknown as VendorSummary[],
      skus: (skus?.rows() ?? []) as unknown as StoredSku[],
      products: this.products.filter((p) => want.productIds.includes(p.productId)),
      rules: this.rules.filter(
        (r) => r.level === 'productType' || (r.productId !== null && want.productIds.includes(r.productId)),
      ),
      endpoints: want.endpoints ? this.endpoints : null,
    };
  }
}
