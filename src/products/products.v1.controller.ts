import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { ProductListDto, ProductsQueryDto } from './dto/product.dto';
import { ProductsService } from './products.service';

@ApiTags('Products')
@V1Auth('shop')
@Controller('v1/products')
export class ProductsV1Controller {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listProducts',
    summary: 'Products received from the store platform, newest first',
    description: 'An unknown vendorId (or one of another shop) matches no products.',
  })
  @ApiOkResponse({ type: ProductListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: ProductsQueryDto): Promise<ProductListDto> {
    return this.products.list(scope, query);
  }
}
