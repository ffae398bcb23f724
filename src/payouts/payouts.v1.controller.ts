import { Body, Controller, Get, HttpCode, Param, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import {
  CreatePayoutBatchesDto,
  PayoutBatchDetailDto,
  PayoutBatchesQueuedDto,
  PayoutBatchListDto,
  PayoutBatchListQueryDto,
} from './dto/payout-batch.dto';
import { PayoutListDto, PayoutListQueryDto } from './dto/payout.dto';
import { PayoutsService } from './payouts.service';
import { ObjectIdParam } from '../common/http/params';
import { ApiJsonOrCsvOk, csvFile, describeColumns, AcceptsCsv } from '../common/csv';
import { PAYOUT_EXPORT_COLUMNS } from './payout-export.columns';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/payouts')
export class PayoutsV1Controller {
  constructor(private readonly payouts: PayoutsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPayouts',
    summary: 'Payout line items: what each vendor is owed, has been paid and has outstanding',
    description:
      'Line items of paid orders (and lines a batch already paid), newest order first. ' +
      '`start`/`end` are UTC calendar days, both inclusive. With `Accept: text/csv` the answer is every row ' +
      'of the same filters (all pages: `limit` and `offset` do not apply), streamed as CSV; the export is ' +
      'recorded in the audit trail (`shop.payouts.export`).',
  })
  @ApiJsonOrCsvOk({
    json: PayoutListDto,
    description: 'One page of payout rows.',
    columns: describeColumns(PAYOUT_EXPORT_COLUMNS),
    example:
      'rowId,type,date,vendorId,vendorName,orderId,orderName,lineItemId,refundId,refundLineItemId,lineItemName,sku,quantity,' +
      'sales,discount,salesAfterDiscount,tax,shipping,commission,costOfItem,taxOnCommissions,tcs,totalGlobalDeductions,' +
      'deduction,payout,paid,balance,payoutStatus,fulfillmentStatus,batchId\r\n' +
      '6741a0c2d3e4f5a6b7c8d9e1,sale,2026-11-20T09:30:00.000Z,6740b9f1c2a4e15b3c9d0a21,acme apparel,5549201834154,#1042,' +
      '13601741586602,,,"Tote, canvas",ACME-TOTE,2,100.00,0.00,100.00,0.00,0.00,10.00,0.00,0.00,0.00,0.00,0.00,90.00,' +
      '0.00,90.00,unpaid,unfulfilled,\r\n',
  })
  @ApiV1Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: PayoutListQueryDto,
    @AcceptsCsv() csv: boolean,
  ): Promise<PayoutListDto | StreamableFile> {
    if (csv) return csvFile(await this.payouts.exportCsv(scope, query), 'payouts.csv');
    return this.payouts.list(scope, query);
  }

  @Post('batches')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'createPayoutBatches',
    summary: 'Queue payout batches up to a period end (one per vendor)',
    description:
      'Answers at once with the batch ids; the batches run on the payout queue. A batch is unique per ' +
      'vendor and period: triggering the same vendor and `until` again answers the same batch and pays ' +
      'nothing twice (a failed batch is run again and resumes where it stopped). Items dated in a period ' +
      'that arrive after its batch completed are paid by the next period.',
  })
  @ApiAcceptedResponse({ type: PayoutBatchesQueuedDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 422)
  trigger(@Scope() scope: ShopScope, @Body() body: CreatePayoutBatchesDto): Promise<PayoutBatchesQueuedDto> {
    return this.payouts.triggerBatches(scope, body);
  }

  @Get('batches')
  @ApiOperation({ operationId: 'listPayoutBatches', summary: 'List payout batches, newest first' })
  @ApiOkResponse({ type: PayoutBatchListDto })
  @ApiV1Errors(422)
  listBatches(
    @Scope() scope: ShopScope,
    @Query() query: PayoutBatchListQueryDto,
  ): Promise<PayoutBatchListDto> {
    return this.payouts.listBatches(scope, query);
  }

  @Get('batches/:id')
  @ApiOperation({
    operationId: 'getPayoutBatch',
    summary: 'Read one payout batch: vendor, period end, totals, status and its transfer',
  })
  @ObjectIdParam('id', '6742c1d2e3f4a5b6c7d8e9f0', 'Batch id')
  @ApiOkResponse({ type: PayoutBatchDetailDto })
  @ApiV1Errors(notFound('Payout batch'))
  getBatch(@Scope() scope: ShopScope, @Param('id') id: string): Promise<PayoutBatchDetailDto> {
    return this.payouts.getBatch(scope, id);
  }
}
