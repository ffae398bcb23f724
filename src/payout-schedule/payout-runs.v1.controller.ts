import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { PayoutEligibilityDto } from './dto/payout-eligibility.dto';
import { PayoutRunDto, PayoutRunListDto, PayoutRunListQueryDto } from './dto/payout-run.dto';
import { PayoutEligibilityService } from './payout-eligibility.service';
import { PayoutRunsService } from './payout-runs.service';

/** v1 (shop token): the scheduled payout runs (DESIGN §15). */
@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/payouts/runs')
export class PayoutRunsV1Controller {
  constructor(private readonly runs: PayoutRunsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPayoutRuns',
    summary: 'Scheduled payout runs, latest due date first',
    description:
      'One run per due date of the shop schedule: its state, each vendor’s batch (or why it was skipped) and, ' +
      'once completed, its totals. `start`/`end` filter the due date.',
  })
  @ApiOkResponse({ type: PayoutRunListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: PayoutRunListQueryDto): Promise<PayoutRunListDto> {
    return this.runs.list(scope, query);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getPayoutRun', summary: 'One scheduled payout run' })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Run id')
  @ApiOkResponse({ type: PayoutRunDto })
  @ApiV1Errors(notFound('Payout run'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<PayoutRunDto> {
    return this.runs.get(scope, id);
  }
}

/** v1 (shop token): why a vendor is (not) paid and when it will be (DESIGN §15). */
@ApiTags('Vendors')
@V1Auth('shop')
@Controller('v1/vendors/:id/payout-eligibility')
export class PayoutEligibilityV1Controller {
  constructor(private readonly eligibility: PayoutEligibilityService) {}

  @Get()
  @ApiOperation({
    operationId: 'getVendorPayoutEligibility',
    summary: 'Whether the next scheduled run pays a vendor, why not, and what it would pay',
    description:
      '`nextPayout.estimatedAmount` is what the next run would pay for the rows and adjustments known now, ' +
      'netted exactly as the payout engine nets a batch, up to the next due date less the vendor’s hold.',
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: PayoutEligibilityDto })
  @ApiV1Errors(notFound('Vendor'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<PayoutEligibilityDto> {
    return this.eligibility.eligibility(scope, id);
  }
}
