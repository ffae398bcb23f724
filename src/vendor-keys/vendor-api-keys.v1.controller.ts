import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V1Auth } from '../common/auth/auth.decorators';
import { actorOf, type Principal } from '../common/auth/principal';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreatedVendorApiKeyDto,
  CreateVendorApiKeyDto,
  RevokedVendorApiKeyDto,
  VendorApiKeyListDto,
} from './dto/vendor-api-key.dto';
import {
  CREATE_DESCRIPTION,
  KEY_CAP_CONFLICT,
  KEY_EXAMPLE_ID,
  KEY_NOT_FOUND,
  LIST_DESCRIPTION,
  REVOKE_DESCRIPTION,
  VENDOR_EXAMPLE_ID,
  VENDOR_NOT_FOUND,
} from './vendor-api-keys.docs';
import { VendorApiKeysService } from './vendor-api-keys.service';

/** The shop manages a vendor's API keys (DESIGN §12) with its shop token. */
@ApiTags('Vendor API keys')
@V1Auth('shop')
@Controller('v1/vendors/:id/api-keys')
export class VendorApiKeysV1Controller {
  constructor(private readonly keys: VendorApiKeysService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createVendorApiKey',
    summary: 'Create an API key for a vendor (vk_live_…); the key is shown only in this response',
    description: CREATE_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ApiCreatedResponse({ type: CreatedVendorApiKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(400, VENDOR_NOT_FOUND, KEY_CAP_CONFLICT, 422)
  create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreateVendorApiKeyDto,
  ): Promise<CreatedVendorApiKeyDto> {
    return this.keys.create(scope, id, body, actorOf(principal));
  }

  @Get()
  @ApiOperation({
    operationId: 'listVendorApiKeys',
    summary: "A vendor's API keys (never their secrets), newest first, revoked ones included",
    description: LIST_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ApiOkResponse({ type: VendorApiKeyListDto })
  @ApiV1Errors(VENDOR_NOT_FOUND, 422)
  list(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Query() page: OffsetPageQueryDto,
  ): Promise<VendorApiKeyListDto> {
    return this.keys.list(scope, id, page);
  }

  @Delete(':keyId')
  @ApiOperation({
    operationId: 'revokeVendorApiKey',
    summary: "Revoke a vendor's API key",
    description: REVOKE_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ObjectIdParam('keyId', KEY_EXAMPLE_ID, 'Vendor API key id')
  @ApiOkResponse({ type: RevokedVendorApiKeyDto })
  @Idempotent('v1')
  @ApiV1Errors(KEY_NOT_FOUND)
  revoke(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<RevokedVendorApiKeyDto> {
    return this.keys.revoke(scope, id, keyId);
  }
}
