import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { UpdateLineItemsDto, UpdateLineItemsResponseDto } from './dto/line-items-update.dto';
import { LineItemUpdatesService } from './line-item-updates.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Line items')
@V1Auth('shop')
@Controller('v1/lineitems')
export class LineItemsV1Controller {
  constructor(private readonly updates: LineItemUpdatesService) {}

  @Post('update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'updateLineItems',
    summary: 'Update line item figures and/or queue their recalculation (items mode or by-SKU mode)',
    description:
      'Items mode: up to 100 `{lineItemId, orderId, fields?, recalculate?}`; each needs fields, recalculate or both. ' +
      'By-SKU mode: `bySku` with `fields` (required unless `recalculate` is true) applies to every line item of the ' +
      'shop with that SKU. Fields are written first, then the recalculation is queued (the response confirms ' +
      'queuing, not completion). `costOfItem` also sets the SKU record’s per-unit cost of goods. Frozen (paid out) ' +
      'and unknown line items are skipped and listed in `errors`; `success` is false when `errors` is not empty.',
  })
  @ApiBody({
    type: UpdateLineItemsDto,
    examples: {
      items: {
        summary: 'Items mode',
        value: {
          items: [
            {
              lineItemId: 13601741586602,
              orderId: 5549201834154,
              fields: { costOfItem: 12.5 },
              recalculate: true,
            },
            { lineItemId: 13601741586603, orderId: 5549201834154, recalculate: true },
          ],
        },
      },
      bySku: {
        summary: 'By-SKU mode',
        value: { bySku: 'TSHIRT-RED-M', fields: { deduction: 1 }, recalculate: true },
      },
    },
  })
  @ApiOkResponse({ type: UpdateLineItemsResponseDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 413, 422)
  update(@Scope() scope: ShopScope, @Body() body: UpdateLineItemsDto): Promise<UpdateLineItemsResponseDto> {
    return this.updates.update(scope, body);
  }
}
