import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  CreatedMerchantKeyDto,
  CreateMerchantKeyDto,
  MerchantKeyListDto,
  RevokedMerchantKeyDto,
  RotatedMerchantKeyDto,
} from './dto/merchant-key.dto';
import { MerchantKeysService } from './merchant-keys.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Merchant keys')
@V1Auth('shop')
@Controller('v1/merchant-keys')
export class MerchantKeysV1Controller {
  constructor(private readonly keys: MerchantKeysService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a merchant API key (mk_live_…); the key is shown only in this response' })
  @ApiOkResponse({ type: CreatedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 422)
  create(@Scope() scope: ShopScope, @Body() body: CreateMerchantKeyDto): Promise<CreatedMerchantKeyDto> {
    return this.keys.create(scope, body.name);
  }

  @Get()
  @ApiOperation({ summary: "List the shop's merchant keys (never their secrets), newest first" })
  @ApiOkResponse({ type: MerchantKeyListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() page: OffsetPageQueryDto): Promise<MerchantKeyListDto> {
    return this.keys.list(scope, page);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate a key: a new key now, the old one keeps working for 24 hours' })
  @ApiParam({ name: 'id', example: '6740b9f1c2a4e15b3c9d0a11' })
  @ApiOkResponse({ type: RotatedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(404, 409)
  rotate(@Scope() scope: ShopScope, @Param('id') id: string): Promise<RotatedMerchantKeyDto> {
    return this.keys.rotate(scope, id);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a key: every token minted from it is refused from the next request on' })
  @ApiParam({ name: 'id', example: '6740b9f1c2a4e15b3c9d0a11' })
  @ApiOkResponse({ type: RevokedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(404)
  revoke(@Scope() scope: ShopScope, @Param('id') id: string): Promise<RevokedMerchantKeyDto> {
    return this.keys.revoke(scope, id);
  }
}
