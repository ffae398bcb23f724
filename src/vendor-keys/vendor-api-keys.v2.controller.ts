import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V2Auth } from '../common/auth/auth.decorators';
import { actorOf, type Principal } from '../common/auth/principal';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ObjectIdParam } from '../common/http/params';
import { CursorPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  CreatedVendorApiKeyDto,
  CreatedVendorApiKeyEnvelopeDto,
  CreateVendorApiKeyDto,
  VendorApiKeyDto,
  VendorApiKeyEnvelopeDto,
  VendorApiKeysPageDto,
  VendorApiKeysPageEnvelopeDto,
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

/** V2 administration of a vendor's API keys: merchant or shop token; a vendor token → 403. */
@ApiTags('Vendor API keys')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors/:id/api-keys')
export class VendorApiKeysV2Controller {
  constructor(private readonly keys: VendorApiKeysService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createVendorApiKeyV2',
    summary: 'Create an API key for a vendor (vk_live_…); the key is shown only in this response',
    description: CREATE_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ApiCreatedResponse({ type: CreatedVendorApiKeyEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, VENDOR_NOT_FOUND, KEY_CAP_CONFLICT, 422)
  async create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreateVendorApiKeyDto,
  ): Promise<V2Envelope<CreatedVendorApiKeyDto>> {
    return ok(await this.keys.create(scope, id, body, actorOf(principal)));
  }

  @Get()
  @ApiOperation({
    operationId: 'listVendorApiKeysV2',
    summary: "A vendor's API keys (never their secrets), newest first (cursor paging), revoked ones included",
    description: LIST_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ApiOkResponse({ type: VendorApiKeysPageEnvelopeDto })
  @ApiV2Errors(VENDOR_NOT_FOUND, 422)
  async list(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Query() query: CursorPageQueryDto,
  ): Promise<V2Envelope<VendorApiKeysPageDto>> {
    return ok(await this.keys.page(scope, id, query));
  }

  @Delete(':keyId')
  @ApiOperation({
    operationId: 'revokeVendorApiKeyV2',
    summary: "Revoke a vendor's API key",
    description: REVOKE_DESCRIPTION,
  })
  @ObjectIdParam('id', VENDOR_EXAMPLE_ID, 'Vendor id')
  @ObjectIdParam('keyId', KEY_EXAMPLE_ID, 'Vendor API key id')
  @ApiOkResponse({ type: VendorApiKeyEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(KEY_NOT_FOUND)
  async revoke(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<V2Envelope<VendorApiKeyDto>> {
    return ok((await this.keys.revoke(scope, id, keyId)).apiKey);
  }
}
