import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, SignInLimited, V2Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import { AuthService } from './auth.service';
import { AuthenticateMerchantDto, V2TokenDto, V2TokenEnvelopeDto } from './dto/auth.dto';

/** The merchant token endpoints are served without prefix (spec §4.1) and under /v2 (DESIGN §3). */
@ApiTags('Authentication')
@Controller()
export class AuthV2Controller {
  constructor(private readonly auth: AuthService) {}

  @Post(['authenticate', 'v2/authenticate'])
  @HttpCode(200)
  @ApiOperationIdsByPath({
    '/authenticate': 'authenticateMerchant',
    '/v2/authenticate': 'authenticateMerchantV2',
  })
  @ApiOperation({
    summary:
      'Exchange a merchant API key (mk_live_…) for a merchant token (14 days), or a vendor API key (vk_live_…) ' +
      'for a vendor token (24 h)',
    description:
      'Told apart by prefix. A vendor key answers `scope: "vendor"` with the key’s `permissions`, `mode: "live"` ' +
      'and `vendorId`; its token is refused from the next request on once the key is revoked or its vendor ' +
      'deactivated, and cannot manage API keys. A wrong, revoked or malformed key answers 401 (`Invalid merchant ' +
      'API key` / `Invalid vendor API key`).',
  })
  @ApiOkResponse({ type: V2TokenEnvelopeDto })
  @ApiV2Errors(400, { status: 401, message: 'Invalid merchant API key' }, 422)
  @SignInLimited('v2', " (the account: the key's lookup id)")
  async authenticate(
    @Body() body: AuthenticateMerchantDto,
    @Ip() ip: string,
  ): Promise<V2Envelope<V2TokenDto>> {
    return ok(await this.auth.authenticateKey(body.apiKey, ip));
  }

  @Post(['refresh-token', 'v2/refresh-token'])
  @HttpCode(200)
  @ApiOperationIdsByPath({ '/refresh-token': 'refreshToken', '/v2/refresh-token': 'refreshTokenV2' })
  @V2Auth('merchant', 'vendor')
  @ApiOperation({ summary: 'Renew the non-expired merchant or vendor token sent in x-access-token; no body' })
  @ApiOkResponse({ type: V2TokenEnvelopeDto })
  async refresh(@CurrentPrincipal() principal: Principal): Promise<V2Envelope<V2TokenDto>> {
    return ok(await this.auth.refreshV2(principal));
  }
}
