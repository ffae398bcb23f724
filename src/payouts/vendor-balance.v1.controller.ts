import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { VendorBalanceDto } from './dto/vendor-balance.dto';
import { VendorBalanceService } from './vendor-balance.service';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/vendors')
export class VendorBalanceV1Controller {
  constructor(private readonly balances: VendorBalanceService) {}

  @Get(':id/balance')
  @ApiOperation({
    operationId: 'getVendorBalance',
    summary: "A vendor's payout balance: due now, pending, paid to date, carried forward, last batch",
    description:
      '`due` is what the next batch would net now and may be negative (refunds after a payout are owed ' +
      'back; a batch whose net is zero or below pays nothing and carries it forward). `pending` is earned ' +
      'on orders whose money is not captured yet. Amounts to the cent.',
  })
  @ObjectIdParam('id', '6740b9f1c2a4e15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorBalanceDto })
  @ApiV1Errors(notFound('Vendor'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<VendorBalanceDto> {
    return this.balances.get(scope, id);
  }
}
