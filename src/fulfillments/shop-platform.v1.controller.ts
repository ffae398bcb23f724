import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { SetShopPlatformDto, ShopPlatformDto } from './dto/shop-platform.dto';
import { ShopPlatformService } from './shop-platform.service';

@ApiTags('Fulfillments')
@V1Auth('shop')
@Controller('v1/shop/platform')
export class ShopPlatformV1Controller {
  constructor(private readonly platform: ShopPlatformService) {}

  @Get()
  @ApiOperation({
    operationId: 'getShopPlatform',
    summary: 'Which store platform fulfillments go through, and whether an access token is set',
  })
  @ApiOkResponse({ type: ShopPlatformDto })
  get(@Scope() scope: ShopScope): Promise<ShopPlatformDto> {
    return this.platform.get(scope);
  }

  @Put()
  @ApiOperation({
    operationId: 'setShopPlatform',
    summary: 'Choose the store platform (local or shopify) and set its access token (write-only)',
  })
  @ApiOkResponse({ type: ShopPlatformDto })
  @ApiV1Errors(400, 422)
  set(@Scope() scope: ShopScope, @Body() body: SetShopPlatformDto): Promise<ShopPlatformDto> {
    return this.platform.set(scope, body);
  }
}
