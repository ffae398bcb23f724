import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import {
  CreatePayoutAdjustmentDto,
  DeletedPayoutAdjustmentDto,
  DeletedPayoutAdjustmentEnvelopeDto,
  PayoutAdjustmentDto,
  PayoutAdjustmentEnvelopeDto,
  PayoutAdjustmentListDto,
  PayoutAdjustmentListEnvelopeDto,
  PayoutAdjustmentListQueryDto,
  UpdatePayoutAdjustmentDto,
} from './dto/payout-adjustment.dto';
import { PayoutAdjustmentsService } from './payout-adjustments.service';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';

const PAID_409 = ApiV2Errors({
  status: 409,
  code: 'ADJUSTMENT_PAID',
  description: 'The adjustment is PAID (code ADJUSTMENT_PAID); nothing was changed',
  message: 'A PAID payout adjustment cannot be changed',
});

@ApiTags('Payout adjustments')
@V2Auth('merchant', 'shop')
@Controller('v2/payout-adjustments')
export class PayoutAdjustmentsV2Controller {
  constructor(private readonly adjustments: PayoutAdjustmentsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPayoutAdjustment',
    summary: 'Add an addition to or deduction from a vendor payout',
    description:
      'Send a positive `amount` and a `type`; the stored amount carries the sign of the type. `status`, ' +
      '`batchId`, `customId` and `shopId` are set by the server and refused in the body (422).',
  })
  @ApiCreatedResponse({ type: PayoutAdjustmentEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, 422)
  async create(
    @Scope() scope: ShopScope,
    @Body() body: CreatePayoutAdjustmentDto,
  ): Promise<V2Envelope<PayoutAdjustmentDto>> {
    return ok(await this.adjustments.create(scope, body));
  }

  @Get()
  @ApiOperation({
    operationId: 'listPayoutAdjustments',
    summary: 'List payout adjustments, newest first, by page',
  })
  @ApiOkResponse({ type: PayoutAdjustmentListEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: PayoutAdjustmentListQueryDto,
  ): Promise<V2Envelope<PayoutAdjustmentListDto>> {
    return ok(await this.adjustments.list(scope, query));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getPayoutAdjustment', summary: 'Read one payout adjustment' })
  @ObjectIdParam('id', '6741a0c2d3e4f5a6b7c8d9e0', 'Adjustment id')
  @ApiOkResponse({ type: PayoutAdjustmentEnvelopeDto })
  @ApiV2Errors(notFound('Payout adjustment'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<PayoutAdjustmentDto>> {
    return ok(await this.adjustments.get(scope, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updatePayoutAdjustment',
    summary: 'Change an UNPAID adjustment (amount, type, comments, customItemDate)',
  })
  @ObjectIdParam('id', '6741a0c2d3e4f5a6b7c8d9e0', 'Adjustment id')
  @ApiOkResponse({ type: PayoutAdjustmentEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, notFound('Payout adjustment'), 422)
  @PAID_409
  async update(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: UpdatePayoutAdjustmentDto,
  ): Promise<V2Envelope<PayoutAdjustmentDto>> {
    return ok(await this.adjustments.update(scope, id, body));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deletePayoutAdjustment', summary: 'Delete an UNPAID adjustment' })
  @ObjectIdParam('id', '6741a0c2d3e4f5a6b7c8d9e0', 'Adjustment id')
  @ApiOkResponse({ type: DeletedPayoutAdjustmentEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(notFound('Payout adjustment'))
  @PAID_409
  async remove(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
  ): Promise<V2Envelope<DeletedPayoutAdjustmentDto>> {
    return ok(await this.adjustments.remove(scope, id));
  }
}
