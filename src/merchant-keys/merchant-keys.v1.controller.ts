import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  CreatedMerchantKeyDto,
  CreateMerchantKeyDto,
  MerchantKeyListDto,
  RevokedMerchantKeyDto,
  RotatedMerchantKeyDto,
} from './dto/merchant-key.dto';
import { MAX_ACTIVE_MERCHANT_KEYS, MerchantKeysService } from './merchant-keys.service';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Merchant keys')
@V1Auth('shop')
@Controller('v1/merchant-keys')
export class MerchantKeysV1Controller {
  constructor(private readonly keys: MerchantKeysService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createMerchantKey',
    summary: 'Create a merchant API key (mk_live_…); the key is shown only in this response',
    description: `At most ${MAX_ACTIVE_MERCHANT_KEYS} active keys per shop: one more answers 409 (revoke one first).`,
  })
  @ApiOkResponse({ type: CreatedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(
    400,
    {
      status: 409,
      message: `This shop already has ${MAX_ACTIVE_MERCHANT_KEYS} active merchant keys, the most it can have; revoke one (DELETE /v1/merchant-keys/{id}) before creating another`,
    },
    422,
  )
  create(@Scope() scope: ShopScope, @Body() body: CreateMerchantKeyDto): Promise<CreatedMerchantKeyDto> {
    return this.keys.create(scope, body.name);
  }

  @Get()
  @ApiOperation({
    operationId: 'listMerchantKeys',
    summary: "List the shop's merchant keys (never their secrets), newest first",
  })
  @ApiOkResponse({ type: MerchantKeyListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() page: OffsetPageQueryDto): Promise<MerchantKeyListDto> {
    return this.keys.list(scope, page);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateMerchantKey',
    summary: 'Rotate a key: a new key now, the old one keeps working for 24 hours',
  })
  @ObjectIdParam('id', '6740b9f1c2a4e15b3c9d0a11', 'Merchant key id')
  @ApiOkResponse({ type: RotatedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(notFound('Merchant key'), {
    status: 409,
    description: `The key is not active, or ${MAX_ACTIVE_MERCHANT_KEYS} rotated keys are already in their grace window`,
    message: 'Only an active key can be rotated; this key is rotated',
  })
  rotate(@Scope() scope: ShopScope, @Param('id') id: string): Promise<RotatedMerchantKeyDto> {
    return this.keys.rotate(scope, id);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeMerchantKey',
    summary: 'Revoke a key: every token minted from it is refused from the next request on',
  })
  @ObjectIdParam('id', '6740b9f1c2a4e15b3c9d0a11', 'Merchant key id')
  @ApiOkResponse({ type: RevokedMerchantKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(notFound('Merchant key'))
  revoke(@Scope() scope: ShopScope, @Param('id') id: string): Promise<RevokedMerchantKeyDto> {
    return this.keys.revoke(scope, id);
  }
}
