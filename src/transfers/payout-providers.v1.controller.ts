import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { PayoutProvidersDto, SetPayoutProvidersDto } from './dto/payout-providers.dto';
import { PayoutProvidersService } from './payout-providers.service';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/shop/payout-providers')
export class PayoutProvidersV1Controller {
  constructor(private readonly providers: PayoutProvidersService) {}

  @Get()
  @ApiOperation({
    operationId: 'getPayoutProviders',
    summary: 'Which payout provider credentials are set (never the secrets), mode and currency',
  })
  @ApiOkResponse({ type: PayoutProvidersDto })
  get(@Scope() scope: ShopScope): Promise<PayoutProvidersDto> {
    return this.providers.get(scope);
  }

  @Put()
  @ApiOperation({
    operationId: 'setPayoutProviders',
    summary: 'Set Stripe and PayPal credentials (write-only, encrypted at rest), mode and currency',
    description:
      'Only the given fields change; `null` removes a credential. In `sandbox` mode Stripe keys must be test ' +
      'keys, in `live` mode live keys. The answer says which credentials are set; secrets are never returned.',
  })
  @ApiOkResponse({ type: PayoutProvidersDto })
  @ApiV1Errors(400, 422)
  set(@Scope() scope: ShopScope, @Body() body: SetPayoutProvidersDto): Promise<PayoutProvidersDto> {
    return this.providers.set(scope, body);
  }
}
