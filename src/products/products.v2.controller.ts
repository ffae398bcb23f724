import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import type { ProductDto } from './dto/product.dto';
import {
  ProductCountsDto,
  ProductCountsEnvelopeDto,
  ProductEnvelopeDto,
  ProductsPageDto,
  ProductsPageEnvelopeDto,
  ProductsV2QueryDto,
  ShopProductsV2QueryDto,
} from './dto/product-v2.dto';
import { ProductReadsService } from './product-reads.service';

const PRODUCT_ID = ApiParam({
  name: 'id',
  description: 'Our product `_id` (24 hexadecimal characters) or the platform product id (decimal digits)',
  example: '7513594577066',
  schema: { type: 'string', pattern: '^([0-9a-fA-F]{24}|[0-9]{1,20})$', minLength: 1, maxLength: 24 },
});

/**
 * Products as the store platform sent them, read on the vendor surface (DESIGN §12, `products:read`):
 * `/products…` for vendor tokens (also under `/v2`), `/v2/products…` for shop tokens too. A merchant
 * token gets 403. Product writes stay on the store platform.
 */
@ApiTags('Products')
@Controller()
export class ProductsV2Controller {
  constructor(private readonly products: ProductReadsService) {}

  @Get('v2/products')
  @V2Auth('shop', 'vendor')
  @RequireScope('products:read')
  @ApiOperation({
    operationId: 'listProductsV2',
    summary: 'Products, newest first (cursor paging)',
    description:
      'Shop token: every live product of the shop (`vendorId` narrows to one vendor). Vendor token: the products ' +
      'whose vendor name is the vendor’s. Filters `status`, `search` (title contains, case-insensitive).',
  })
  @ApiOkResponse({ type: ProductsPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: ShopProductsV2QueryDto,
  ): Promise<V2Envelope<ProductsPageDto>> {
    return ok(await this.products.list(scope, query));
  }

  @Get('products')
  @V2Auth('vendor')
  @RequireScope('products:read')
  @ApiOperation({
    operationId: 'listVendorProducts',
    summary: "The vendor's own products, newest first (cursor paging)",
    description:
      'The products whose vendor name is the vendor’s. Filters `status`, `search` (title contains).',
  })
  @ApiOkResponse({ type: ProductsPageEnvelopeDto })
  @ApiV2Errors(422)
  async vendorList(
    @Scope() scope: ShopScope,
    @Query() query: ProductsV2QueryDto,
  ): Promise<V2Envelope<ProductsPageDto>> {
    return ok(await this.products.list(scope, query));
  }

  @Get(['products/counts', 'v2/products/counts'])
  @V2Auth('vendor')
  @RequireScope('products:read')
  @ApiOperationIdsByPath({
    '/products/counts': 'countVendorProducts',
    '/v2/products/counts': 'countVendorProductsV2',
  })
  @ApiOperation({
    summary: "The vendor's live products per status: active, draft, archived",
    description: 'Vendor tokens only.',
  })
  @ApiOkResponse({ type: ProductCountsEnvelopeDto })
  @ApiV2Errors()
  async counts(@Scope() scope: ShopScope): Promise<V2Envelope<ProductCountsDto>> {
    return ok(await this.products.counts(scope));
  }

  @Get('v2/products/:id')
  @V2Auth('shop', 'vendor')
  @RequireScope('products:read')
  @ApiOperation({
    operationId: 'getProductV2',
    summary: 'One product by our id or the platform product id',
    description: 'A vendor token reads only its own products: another vendor’s or shop’s → 404.',
  })
  @PRODUCT_ID
  @ApiOkResponse({ type: ProductEnvelopeDto })
  @ApiV2Errors(notFound('Product'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<ProductDto>> {
    return ok(await this.products.get(scope, id));
  }

  @Get('products/:id')
  @V2Auth('vendor')
  @RequireScope('products:read')
  @ApiOperation({
    operationId: 'getVendorProduct',
    summary: "One of the vendor's products by our id or the platform product id",
    description: 'Another vendor’s or shop’s product → 404.',
  })
  @PRODUCT_ID
  @ApiOkResponse({ type: ProductEnvelopeDto })
  @ApiV2Errors(notFound('Product'))
  async vendorGet(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<ProductDto>> {
    return ok(await this.products.get(scope, id));
  }
}
