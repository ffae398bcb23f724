import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ValidationError } from '../common/errors';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { BANK_FILE_FORMATS, BankFileFormat, BankFileService } from './bank-file.service';
import {
  ConfirmTransferDto,
  FailTransferDto,
  TransferDto,
  TransferListDto,
  TransferListQueryDto,
} from './dto/transfer.dto';
import { TransferFollowUp } from './transfer-follow-up.service';
import { TransfersService } from './transfers.service';

const TRANSFER_CONFLICT = { status: 409, message: 'Only a failed transfer can be retried; this one is paid' };

/**
 * Operators see, confirm, retry and follow up transfers, and download a paid batch's bank file (shop
 * token).
 */
@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/payouts')
export class TransfersV1Controller {
  constructor(
    private readonly transfers: TransfersService,
    private readonly bankFiles: BankFileService,
    private readonly followUps: TransferFollowUp,
  ) {}

  @Get('transfers')
  @ApiOperation({
    operationId: 'listTransfers',
    summary: 'Transfers (one per paid payout batch), newest first',
    description: '`start`/`end` filter the creation day (UTC, both inclusive).',
  })
  @ApiOkResponse({ type: TransferListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: TransferListQueryDto): Promise<TransferListDto> {
    return this.transfers.list(scope, query);
  }

  @Get('transfers/:id')
  @ApiOperation({ operationId: 'getTransfer', summary: 'One transfer with its state history' })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Transfer id')
  @ApiOkResponse({ type: TransferDto })
  @ApiV1Errors(notFound('Transfer'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<TransferDto> {
    return this.transfers.get(scope, id);
  }

  @Post('transfers/:id/confirm')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'confirmTransfer',
    summary: 'Record the bank reference of a manual transfer the operator paid → paid',
    description:
      'Only for a transfer in `awaiting_reference`; the same reference again answers the paid transfer.',
  })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Transfer id')
  @ApiOkResponse({ type: TransferDto })
  @ApiV1Errors(
    400,
    notFound('Transfer'),
    {
      status: 409,
      message: 'Only a manual transfer awaiting its reference can be confirmed; this one is paid',
    },
    422,
  )
  confirm(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: ConfirmTransferDto,
  ): Promise<TransferDto> {
    return this.transfers.confirm(scope, id, body.reference);
  }

  @Post('transfers/:id/fail')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'failManualTransfer',
    summary: 'Record that the bank refused a manual transfer → failed, its amount credited back',
    description:
      'Only for a manual transfer in `awaiting_reference` (the operator’s payment by hand was refused ' +
      'or returned): it moves to `failed` and its amount is credited back as a system ADDITION ' +
      'adjustment the vendor’s next batch pays, as for a provider’s failure; it can then be retried. ' +
      'The same reason again answers the failed transfer. Audited as `transfer.fail`.',
  })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Transfer id')
  @ApiOkResponse({ type: TransferDto })
  @ApiV1Errors(
    400,
    notFound('Transfer'),
    {
      status: 409,
      message: 'Only a manual transfer awaiting its reference can be marked failed; this one is paid',
    },
    422,
  )
  markFailed(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: FailTransferDto,
  ): Promise<TransferDto> {
    return this.transfers.markFailed(scope, id, body.reason);
  }

  @Post('transfers/:id/retry')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'retryTransfer',
    summary: 'Send a failed transfer again (its credit-back is withdrawn)',
    description:
      'Only for a `failed` transfer whose credit-back adjustment no batch has paid yet (else 409: the ' +
      'amount reaches the vendor through that batch). The same provider idempotency key is used.',
  })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Transfer id')
  @ApiOkResponse({ type: TransferDto })
  @ApiV1Errors(notFound('Transfer'), TRANSFER_CONFLICT)
  retry(@Scope() scope: ShopScope, @Param('id') id: string): Promise<TransferDto> {
    return this.transfers.retry(scope, id);
  }

  @Post('transfers/:id/follow-up')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'followUpTransfer',
    summary: 'Ask the provider about a pending or sent transfer now, and apply its answer',
    description:
      'For a transfer that is not final (`pending`, `sent`): the provider is asked in the request. A ' +
      'transfer it made → `paid` (then `reversed` by what it has taken back since, credited back); a ' +
      'failed one → `failed` (credited back); still in progress → unchanged. A `pending` transfer the ' +
      'provider has no trace of is sent now with its same idempotency key (never a second transfer). ' +
      'Audited (`transfer.follow_up`); every move is in the transfer history with the caller. A provider ' +
      'refusal is recorded in `lastError`. 503: the provider could not be asked, nothing changed.',
  })
  @ObjectIdParam('id', '6745a1b2c3d4e5f6a7b8c9d0', 'Transfer id')
  @ApiOkResponse({ type: TransferDto })
  @ApiV1Errors(
    notFound('Transfer'),
    { status: 409, message: 'Only a pending or sent transfer can be followed up; this one is paid' },
    { status: 503, message: 'Stripe unavailable: … Nothing was changed; follow it up again shortly' },
  )
  followUp(@Scope() scope: ShopScope, @Param('id') id: string): Promise<TransferDto> {
    return this.followUps.followUp(scope, id);
  }

  @Get('batches/:id/bank-file')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    operationId: 'getPayoutBatchBankFile',
    summary: 'CSV to pay a paid batch by hand (bank transfer, or PayPal mass payment)',
    description:
      '`format=bank` (default): header `vendor,amount,currency,reference` and one row, reference = the batch id. ' +
      '`format=paypal`: PayPal’s mass-payment upload order without a header — receiver, amount, currency, ' +
      'reference id, note, wallet (needs the vendor’s PayPal receiver, else 409). A batch without a transfer ' +
      '(carried forward, not paid yet) → 404.',
  })
  @ObjectIdParam('id', '6742c1d2e3f4a5b6c7d8e9f0', 'Batch id')
  @ApiQuery({
    name: 'format',
    required: false,
    enum: BANK_FILE_FORMATS,
    description: 'Column layout (default bank)',
  })
  // The file is CSV; every error answer is the usual JSON body.
  @ApiProduces('text/csv', 'application/json')
  @ApiOkResponse({
    description: 'The CSV file (attachment)',
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          example: 'vendor,amount,currency,reference\nacme supplies,461.10,USD,6742c1d2e3f4a5b6c7d8e9f0\n',
        },
      },
    },
  })
  @ApiV1Errors(
    notFound('Transfer of this payout batch'),
    {
      status: 409,
      message: 'The vendor has no PayPal receiver: set a paypal payout method, or use format=bank',
    },
    422,
  )
  async bankFile(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('format') format?: string,
  ): Promise<string> {
    const f = (format ?? 'bank') as BankFileFormat;
    if (!BANK_FILE_FORMATS.includes(f)) {
      throw new ValidationError(`format must be one of ${BANK_FILE_FORMATS.join(', ')}`, {
        fields: { format: [`format must be one of ${BANK_FILE_FORMATS.join(', ')}`] },
      });
    }
    const file = await this.bankFiles.build(scope, id, f);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${file.filename}"`);
    return file.csv;
  }
}
