import { Body, Controller, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SignInLimited } from '../common/auth/auth.decorators';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { VendorAuthenticateDto, VendorTokenDto, VendorTokenEnvelopeDto } from './dto/vendor-auth.dto';
import { VendorAuthService } from './vendor-auth.service';

@ApiTags('Authentication')
@Controller('v2/vendor')
export class VendorAuthV2Controller {
  constructor(private readonly vendorAuth: VendorAuthService) {}

  @Post('authenticate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'authenticateVendor',
    summary: 'Vendor portal sign-in: a vendor token (24 h), renewable at POST /refresh-token',
    description:
      'For an approved user of an active vendor. Wrong password, unknown email, unapproved user and inactive ' +
      'vendor all answer the same 401. After 5 failed attempts within 15 minutes (or 20 within a day) for the same ' +
      'shop, email and client address, that address is refused with 429 and a Retry-After header; other ' +
      'addresses are not. Tokens are refused once the password, email or approval changes, or the vendor is deactivated.',
  })
  @ApiOkResponse({ type: VendorTokenEnvelopeDto })
  @ApiV2Errors(400, { status: 401, message: 'Invalid shop domain, email or password' }, 422)
  @SignInLimited('v2', ' (the account: this shop and email)')
  async authenticate(
    @Body() body: VendorAuthenticateDto,
    @Ip() ip: string,
  ): Promise<V2Envelope<VendorTokenDto>> {
    return ok(await this.vendorAuth.signIn(body, ip));
  }
}
