import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { V1ErrorDto } from '../common/http/error.dto';
import type { ShopScope } from '../common/tenancy';
import { ShopProfileDto, UpdatedShopProfileDto, UpdateShopProfileDto } from './dto/profile.dto';
import { ShopProfileService } from './shop-profile.service';

@ApiTags('Shop')
@V1Auth('shop')
@Controller('v1/shop/profile')
export class ShopProfileV1Controller {
  constructor(private readonly profile: ShopProfileService) {}

  @Get()
  @ApiOperation({ operationId: 'getShopProfile', summary: 'The names of the custom vendor profile fields' })
  @ApiOkResponse({ type: ShopProfileDto })
  @ApiUnauthorizedResponse({
    description: 'Missing or invalid token, or (as the spec says) the shop has no profile configured',
    type: V1ErrorDto,
  })
  async get(@Scope() scope: ShopScope): Promise<ShopProfileDto> {
    return { fields: await this.profile.get(scope) };
  }

  @Put()
  @ApiOperation({
    operationId: 'setShopProfile',
    summary: 'Configure the vendor profile fields (replaces the list)',
    description: 'Vendor profile entries (PUT /v1/vendors/{id}/profile) may only use these names.',
  })
  @ApiOkResponse({ type: UpdatedShopProfileDto })
  @ApiV1Errors(400, 422)
  async set(@Scope() scope: ShopScope, @Body() body: UpdateShopProfileDto): Promise<UpdatedShopProfileDto> {
    return { message: 'Profile fields updated', fields: await this.profile.set(scope, body.fields) };
  }
}
