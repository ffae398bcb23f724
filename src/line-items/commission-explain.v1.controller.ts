import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { CommissionExplainService } from './commission-explain.service';
import {
  CommissionExplanationDto,
  CommissionPreviewDto,
  LineCommissionExplanationDto,
} from './dto/commission-explain.dto';

const PLATFORM_ID = { type: 'string', pattern: '^[1-9][0-9]{0,15}$', maxLength: 16 } as const;

/** The commission ladder explained (DESIGN §13): for a stored line, and for a hypothetical one. */
@ApiTags('Commissions')
@V1Auth('shop')
@Controller('v1')
export class CommissionExplainV1Controller {
  constructor(private readonly explain: CommissionExplainService) {}

  @Get('orders/:orderId/lineitems/:lineItemId/commission')
  @ApiOperation({
    operationId: 'explainLineItemCommission',
    summary: 'Why a line item has its commission: every level of the commission ladder',
    description:
      'The line’s inputs, every candidate of the ladder (SKU record > product rule > product-type rule > ' +
      'vendor) with `matched` or the reason it did not apply, the applied source, and the figures the ladder ' +
      'gives now with the rules in force at the order’s date; `stored` is what the line holds (they differ ' +
      'until a recalculation; a frozen line is never recalculated). Another shop’s line answers 404.',
  })
  @ApiParam({
    name: 'orderId',
    description: 'Store-platform order id',
    example: '5549201834154',
    schema: PLATFORM_ID,
  })
  @ApiParam({
    name: 'lineItemId',
    description: 'Store-platform line item id',
    example: '13601741586602',
    schema: PLATFORM_ID,
  })
  @ApiOkResponse({ type: LineCommissionExplanationDto })
  @ApiV1Errors(notFound('Line item'))
  line(
    @Scope() scope: ShopScope,
    @Param('orderId') orderId: string,
    @Param('lineItemId') lineItemId: string,
  ): Promise<LineCommissionExplanationDto> {
    return this.explain.explainLine(scope, orderId, lineItemId);
  }

  @Post('commissions/preview')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'previewCommission',
    summary: 'The commission a hypothetical line would get, and why',
    description:
      'The same ladder and money calculation as a real line: the vendor, its SKU record, the product ' +
      '(`productType` read from the stored product when only `productId` is given), the rules in force at ' +
      '`orderDate` (omitted: now) and the shop’s settings. Writes nothing. An unknown vendor is a 422.',
  })
  @ApiOkResponse({ type: CommissionExplanationDto })
  @ApiV1Errors(400, 422)
  preview(@Scope() scope: ShopScope, @Body() body: CommissionPreviewDto): Promise<CommissionExplanationDto> {
    return this.explain.preview(scope, body);
  }
}
