import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, SignInLimited, V1Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import { AuthService } from './auth.service';
import { AuthenticateV1Dto, ShopTokenDto } from './dto/auth.dto';

@ApiTags('Authentication')
@Controller('v1')
export class AuthV1Controller {
  constructor(private readonly auth: AuthService) {}

  @Post('authenticate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'authenticateShop',
    summary: 'Exchange the shop API key and domain for a shop token (24 h)',
  })
  @ApiOkResponse({ type: ShopTokenDto })
  @ApiV1Errors(400, { status: 401, message: 'Invalid API key or shop domain' }, 422)
  @SignInLimited('v1', ' (the account: this shop domain)')
  authenticate(@Body() body: AuthenticateV1Dto, @Ip() ip: string): Promise<ShopTokenDto> {
    return this.auth.authenticateShop(body.apiKey, body.shopDomain, ip);
  }

  @Post('refresh-token')
  @HttpCode(200)
  @V1Auth('shop')
  @ApiOperation({ operationId: 'refreshShopToken', summary: 'Renew a valid shop token; no body' })
  @ApiOkResponse({ type: ShopTokenDto })
  refresh(@CurrentPrincipal() principal: Principal): ShopTokenDto {
    return this.auth.refreshShop(principal);
  }
}
