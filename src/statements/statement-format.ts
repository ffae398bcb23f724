import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** `?format=`: the statement's format, over the Accept header when given. */
export class StatementFormatQueryDto {
  @ApiPropertyOptional({
    enum: STATEMENT_FORMATS,
    description:
      'json, csv or pdf; without it the Accept header decides between JSON and CSV (`text/csv`). `pdf`: the ' +
      'statement as a PDF download (`application/pdf`, landscape A4, one line per row, the totals and balances ' +
      'after the rows, every page numbered "page X of Y").',
  })
  @IsOptional()
  @IsIn(STATEMENT_FORMATS)
  format?: StatementFormat;
}

export const STATEMENT_PDF_DOC =
  'With `?format=pdf`: the same statement as a PDF (the rows and figures of the JSON, the totals, what was paid ' +
  'and the balances), streamed as the rows are read.';

/** The format asked for: `?format=` first, else CSV when Accept prefers it, else JSON. */
export const formatOf = (query: StatementFormatQueryDto, acceptsCsv: boolean): StatementFormat =>
  query.format ?? (acceptsCsv ? 'csv' : 'json');
