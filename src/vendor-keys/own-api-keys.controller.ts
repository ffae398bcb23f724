import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, V2Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { ObjectIdParam } from '../common/http/params';
import { CursorPageQueryDto } from '../common/pagination';
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
  REVOKE_DESCRIPTION,
} from './vendor-api-keys.docs';
import { VendorApiKeysService } from './vendor-api-keys.service';

const PORTAL_ONLY =
  ' Only a portal user’s vendor token: a token minted from a vendor API key is refused with 403.';

/** The vendor surface (DESIGN §12): a portal user manages its own vendor's API keys. */
@ApiTags('Vendor API keys')
@V2Auth('vendor')
@Controller()
export class OwnApiKeysController {
  constructor(private readonly keys: VendorApiKeysService) {}

  @Post(['settings/api-keys', 'v2/settings/api-keys'])
  @HttpCode(201)
  @ApiOperationIdsByPath({
    '/settings/api-keys': 'createOwnApiKey',
    '/v2/settings/api-keys': 'createOwnApiKeyV2',
  })
  @ApiOperation({
    summary: "Create an API key for the signed-in user's vendor; the key is shown only in this response",
    description:
      `${CREATE_DESCRIPTION} The scopes must be among the user’s own permissions: any other answers 403 ` +
      '"Insufficient scope" naming them (`details.missingScopes`).' +
      PORTAL_ONLY,
  })
  @ApiCreatedResponse({ type: CreatedVendorApiKeyEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, KEY_CAP_CONFLICT, 422)
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateVendorApiKeyDto,
  ): Promise<V2Envelope<CreatedVendorApiKeyDto>> {
    return ok(await this.keys.createOwn(principal, body));
  }

  @Get(['settings/api-keys', 'v2/settings/api-keys'])
  @ApiOperationIdsByPath({
    '/settings/api-keys': 'listOwnApiKeys',
    '/v2/settings/api-keys': 'listOwnApiKeysV2',
  })
  @ApiOperation({
    summary: "The signed-in user's vendor's API keys (never their secrets), newest first (cursor paging)",
    description: `Revoked keys included.${PORTAL_ONLY}`,
  })
  @ApiOkResponse({ type: VendorApiKeysPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: CursorPageQueryDto,
  ): Promise<V2Envelope<VendorApiKeysPageDto>> {
    return ok(await this.keys.pageOwn(principal, query));
  }

  @Delete(['settings/api-keys/:keyId', 'v2/settings/api-keys/:keyId'])
  @ApiOperationIdsByPath({
    '/settings/api-keys/{keyId}': 'revokeOwnApiKey',
    '/v2/settings/api-keys/{keyId}': 'revokeOwnApiKeyV2',
  })
  @ApiOperation({
    summary: "Revoke one of the signed-in user's vendor's API keys",
    description: `${REVOKE_DESCRIPTION} Another vendor's key answers 404.${PORTAL_ONLY}`,
  })
  @ObjectIdParam('keyId', KEY_EXAMPLE_ID, 'Vendor API key id')
  @ApiOkResponse({ type: VendorApiKeyEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(KEY_NOT_FOUND)
  async revoke(
    @CurrentPrincipal() principal: Principal,
    @Param('keyId') keyId: string,
  ): Promise<V2Envelope<VendorApiKeyDto>> {
    return ok((await this.keys.revokeOwn(principal, keyId)).apiKey);
  }
}
