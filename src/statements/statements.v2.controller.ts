import { Controller, Get, Param, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiJsonOrCsvOk, csvFile, AcceptsCsv } from '../common/csv';
import { ApiV2Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { StatementEnvelopeDto } from './dto/statement.dto';
import { STATEMENT_CSV_DOC } from './statement.docs';
import { formatOf, STATEMENT_PDF_DOC, StatementFormatQueryDto } from './statement-format';
import { jsonBody } from './statement-json';
import { StatementsService } from './statements.service';

/** DESIGN §3: the vendor reads its own statements; a shop token reads any batch of the shop. */
@ApiTags('Payouts')
@Controller()
export class StatementsV2Controller {
  constructor(private readonly statements: StatementsService) {}

  @Get('v2/payouts/batches/:id/statement')
  @V2Auth('vendor', 'shop')
  @RequireScope('payouts:read')
  @ApiOperation({
    operationId: 'getVendorPayoutStatement',
    summary: 'A payout batch’s statement (a vendor token: only its own batches)',
    description:
      `${STATEMENT_CSV_DOC.operation} ${STATEMENT_PDF_DOC} Another vendor’s batch answers 404 to a vendor token; a merchant token ` +
      'is refused with 403.',
  })
  @ObjectIdParam('id', '6742c1d2e3f4a5b6c7d8e9f0', 'Batch id')
  @ApiJsonOrCsvOk({ json: StatementEnvelopeDto, ...STATEMENT_CSV_DOC.response, pdf: STATEMENT_PDF_DOC })
  @ApiV2Errors(notFound('Payout batch'), 422)
  async statement(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @AcceptsCsv() csv: boolean,
    @Query() query: StatementFormatQueryDto,
  ): Promise<StreamableFile> {
    const format = formatOf(query, csv);
    if (format === 'json') return jsonBody(await this.statements.statementJson(scope, id, true));
    if (format === 'pdf') {
      const { stream, filename } = await this.statements.statementPdf(scope, id);
      return new StreamableFile(stream, {
        type: 'application/pdf',
        disposition: `attachment; filename="${filename}"`,
      });
    }
    const { stream, filename } = await this.statements.statementCsv(scope, id);
    return csvFile(stream, filename);
  }
}
