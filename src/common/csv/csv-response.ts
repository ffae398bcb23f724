import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  StreamableFile,
  Type,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiExtraModels, ApiOkResponse, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import { CSV_MEDIA_TYPE, wantsCsv } from './content-negotiation';

/**
 * A 200 answered as JSON by default and as CSV for `Accept: text/csv`: both media types documented
 * on the one response, the CSV with its columns and an example. `json` is the JSON body's schema
 * (a DTO class, or a `$ref`-able schema object for enveloped answers).
 */
export function ApiJsonOrCsvOk(spec: {
  json: Type<unknown>;
  description: string;
  columns: string;
  example: string;
  /** Also answered as a PDF (`?format=pdf`): what it shows. */
  pdf?: string;
}) {
  const pdf: Record<string, { schema: object }> = spec.pdf
    ? {
        'application/pdf': {
          schema: { type: 'string', format: 'binary', maxLength: 104857600, description: spec.pdf },
        },
      }
    : {};
  return applyDecorators(
    ApiExtraModels(spec.json),
    ApiProduces('application/json', CSV_MEDIA_TYPE, ...(spec.pdf ? ['application/pdf'] : [])),
    ApiOkResponse({
      description:
        `${spec.description} As JSON by default; with \`Accept: text/csv\` as CSV (RFC 4180, a header row, CRLF ` +
        "line ends; every text cell starting with `=`, `+`, `-`, `@`, a tab or CR is prefixed with `'` so " +
        'spreadsheets do not evaluate it; amounts are plain numbers with two decimals such as `-45.00`).',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(spec.json) } },
        [CSV_MEDIA_TYPE]: {
          schema: { type: 'string', description: `Columns: ${spec.columns}` },
          example: spec.example,
        },
        ...pdf,
      },
    }),
  );
}

/** A CSV body to send as an attachment (Fastify streams it; nothing is buffered). */
export function csvFile(stream: Readable, filename: string): StreamableFile {
  return new StreamableFile(stream, {
    type: `${CSV_MEDIA_TYPE}; charset=utf-8`,
    disposition: `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
  });
}

/**
 * Whether the request asked for CSV (`Accept: text/csv`, see wantsCsv). A parameter decorator of
 * its own, not `@Headers('accept')`: OpenAPI documents content negotiation by the response's media
 * types (an `Accept` header parameter is ignored by the spec), and Swagger would list it as required.
 */
export const AcceptsCsv = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean =>
  wantsCsv(ctx.switchToHttp().getRequest<FastifyRequest>().headers.accept),
);
