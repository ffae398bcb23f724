import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, type V2Envelope } from '../common/http/envelope';
import { V2ErrorDto } from '../common/http/error.dto';
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
import { Idempotent } from '../idempotency/idempotent.decorator';

const ID_PARAM = { name: 'id', description: 'Adjustment id', example: '6741a0c2d3e4f5a6b7c8d9e0' };
const PAID_409 = ApiResponse({
  status: 409,
  description: 'The adjustment is PAID (code ADJUSTMENT_PAID); nothing was changed',
  type: V2ErrorDto,
});

@ApiTags('Payout adjustments')
@V2Auth('merchant', 'shop')
@Controller('v2/payout-adjustments')
export class PayoutAdjustmentsV2Controller {
  constructor(private readonly adjustments: PayoutAdjustmentsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
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
  @ApiOperation({ summary: 'List payout adjustments, newest first, by page' })
  @ApiOkResponse({ type: PayoutAdjustmentListEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: PayoutAdjustmentListQueryDto,
  ): Promise<V2Envelope<PayoutAdjustmentListDto>> {
    return ok(await this.adjustments.list(scope, query));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read one payout adjustment' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PayoutAdjustmentEnvelopeDto })
  @ApiV2Errors(404)
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<PayoutAdjustmentDto>> {
    return ok(await this.adjustments.get(scope, id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change an UNPAID adjustment (amount, type, comments, customItemDate)' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: PayoutAdjustmentEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(400, 404, 422)
  @PAID_409
  async update(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: UpdatePayoutAdjustmentDto,
  ): Promise<V2Envelope<PayoutAdjustmentDto>> {
    return ok(await this.adjustments.update(scope, id, body));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete an UNPAID adjustment' })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: DeletedPayoutAdjustmentEnvelopeDto })
  @Idempotent('v2')
  @ApiV2Errors(404)
  @PAID_409
  async remove(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
  ): Promise<V2Envelope<DeletedPayoutAdjustmentDto>> {
    return ok(await this.adjustments.remove(scope, id));
  }
}
