import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import {
  ShopSettingsResponseDto,
  UpdatedShopSettingsResponseDto,
  UpdateShopSettingsDto,
} from './dto/settings.dto';
import { ShopSettingsService } from './shop-settings.service';

@ApiTags('Shop')
@V1Auth('shop')
@Controller('v1/shop/settings')
export class ShopSettingsV1Controller {
  constructor(private readonly settings: ShopSettingsService) {}

  @Get()
  @ApiOperation({
    operationId: 'getShopSettings',
    summary: 'The settings that feed commission and payout figures',
  })
  @ApiOkResponse({ type: ShopSettingsResponseDto })
  async get(@Scope() scope: ShopScope): Promise<ShopSettingsResponseDto> {
    return { settings: await this.settings.get(scope) };
  }

  @Put()
  @ApiOperation({
    operationId: 'updateShopSettings',
    summary: 'Change settings (only the given ones)',
    description:
      'Rates are percentages from 0 to 100. New orders use the new settings at once; existing line items get ' +
      'them when recalculated (POST /v1/lineitems/update with recalculate).',
  })
  @ApiOkResponse({ type: UpdatedShopSettingsResponseDto })
  @ApiV1Errors(400, 422)
  async update(
    @Scope() scope: ShopScope,
    @Body() body: UpdateShopSettingsDto,
  ): Promise<UpdatedShopSettingsResponseDto> {
    return {
      message: 'Settings updated; they apply to new orders and to recalculations',
      settings: await this.settings.update(scope, body),
    };
  }
}
