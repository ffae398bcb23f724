import { Controller, Get, Param, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiJsonOrCsvOk, csvFile, AcceptsCsv } from '../common/csv';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import { ObjectIdParam } from '../common/http/params';
import type { ShopScope } from '../common/tenancy';
import { StatementDto } from './dto/statement.dto';
import { STATEMENT_CSV_DOC } from './statement.docs';
import { formatOf, STATEMENT_PDF_DOC, StatementFormatQueryDto } from './statement-format';
import { jsonBody } from './statement-json';
import { StatementsService } from './statements.service';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/payouts/batches')
export class StatementsV1Controller {
  constructor(private readonly statements: StatementsService) {}

  @Get(':id/statement')
  @ApiOperation({
    operationId: 'getPayoutBatchStatement',
    summary: 'What a payout batch settled: opening balance, every row, totals, closing balance',
    description: `${STATEMENT_CSV_DOC.operation} ${STATEMENT_PDF_DOC}`,
  })
  @ObjectIdParam('id', '6742c1d2e3f4a5b6c7d8e9f0', 'Batch id')
  @ApiJsonOrCsvOk({ json: StatementDto, ...STATEMENT_CSV_DOC.response, pdf: STATEMENT_PDF_DOC })
  @ApiV1Errors(notFound('Payout batch'), 422)
  async statement(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @AcceptsCsv() csv: boolean,
    @Query() query: StatementFormatQueryDto,
  ): Promise<StreamableFile> {
    const format = formatOf(query, csv);
    if (format === 'json') return jsonBody(await this.statements.statementJson(scope, id, false));
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
