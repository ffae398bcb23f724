import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth, V2Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { PayoutMethodDto, PayoutMethodEnvelopeDto, SetPayoutMethodDto } from './dto/payout-method.dto';
import { PayoutMethodsService } from './payout-methods.service';

const SET_SUMMARY = 'Set how a vendor is paid: manual (default), stripe_connect or paypal';
const SET_DESCRIPTION =
  'Validated for format, not reachability: `acct_…` for stripe_connect; an email, 13-character payer id or ' +
  'phone per `recipientType` for paypal; fields of another type are refused (422). Audited. Later payout ' +
  'batches use it; a transfer already created keeps the method it was created with.';

/** v1 (shop token): a vendor's payout method. */
@ApiTags('Vendors')
@V1Auth('shop')
@Controller('v1/vendors/:id/payout-method')
export class PayoutMethodsV1Controller {
  constructor(private readonly methods: PayoutMethodsService) {}

  @Get()
  @ApiOperation({ operationId: 'getVendorPayoutMethod', summary: 'How a vendor is paid' })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: PayoutMethodDto })
  @ApiV1Errors(notFound('Vendor'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<PayoutMethodDto> {
    return this.methods.get(scope, id);
  }

  @Put()
  @ApiOperation({ operationId: 'setVendorPayoutMethod', summary: SET_SUMMARY, description: SET_DESCRIPTION })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: PayoutMethodDto })
  @ApiV1Errors(400, notFound('Vendor'), 422)
  set(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: SetPayoutMethodDto,
  ): Promise<PayoutMethodDto> {
    return this.methods.set(scope, id, body);
  }
}

/** V2 (merchant or shop token): a vendor's payout method. */
@ApiTags('Vendors')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors/:id/payout-method')
export class PayoutMethodsV2Controller {
  constructor(private readonly methods: PayoutMethodsService) {}

  @Get()
  @ApiOperation({ operationId: 'getVendorPayoutMethodV2', summary: 'How a vendor is paid' })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: PayoutMethodEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<PayoutMethodDto>> {
    return ok(await this.methods.get(scope, id));
  }

  @Put()
  @ApiOperation({
    operationId: 'setVendorPayoutMethodV2',
    summary: SET_SUMMARY,
    description: SET_DESCRIPTION,
  })
  @ObjectIdParam('id', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: PayoutMethodEnvelopeDto })
  @ApiV2Errors(400, notFound('Vendor'), 422)
  async set(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: SetPayoutMethodDto,
  ): Promise<V2Envelope<PayoutMethodDto>> {
    return ok(await this.methods.set(scope, id, body));
  }
}

/** The vendor surface (vendor token): its own payout method, read-only. */
@ApiTags('Vendors')
@V2Auth('vendor')
@Controller()
export class OwnPayoutMethodController {
  constructor(private readonly methods: PayoutMethodsService) {}

  @Get('v2/payout-method')
  @ApiOperation({
    operationId: 'getOwnPayoutMethod',
    summary: 'The signed-in vendor’s own payout method (read-only; the shop sets it)',
  })
  @ApiOkResponse({ type: PayoutMethodEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async get(@Scope() scope: ShopScope): Promise<V2Envelope<PayoutMethodDto>> {
    return ok(await this.methods.get(scope, scope.vendorId!));
  }

  /** The same at the vendor surface's unversioned path (like `GET /orders`). */
  @Get('payout-method')
  @ApiOperation({
    operationId: 'getOwnPayoutMethodUnversioned',
    summary: 'The signed-in vendor’s own payout method (same as GET /v2/payout-method)',
  })
  @ApiOkResponse({ type: PayoutMethodEnvelopeDto })
  @ApiV2Errors(notFound('Vendor'))
  async getUnversioned(@Scope() scope: ShopScope): Promise<V2Envelope<PayoutMethodDto>> {
    return ok(await this.methods.get(scope, scope.vendorId!));
  }
}
