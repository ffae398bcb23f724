import { applyDecorators, StreamableFile } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Readable } from 'node:stream';

export const PDF_MEDIA_TYPE = 'application/pdf';

/** A rendered PDF and the name it is downloaded under. */
export interface PdfFile {
  pdf: Buffer | Readable;
  filename: string;
}

/** `<number>.pdf`, else `<type>-<id>.pdf`; only file-name-safe characters. */
export const pdfName = (base: string): string => `${base.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;

/** A PDF answered as a download (`Content-Disposition: attachment`). */
export function pdfResponse(file: PdfFile): StreamableFile {
  const options = { type: PDF_MEDIA_TYPE, disposition: `attachment; filename="${file.filename}"` };
  return Buffer.isBuffer(file.pdf)
    ? new StreamableFile(file.pdf, { ...options, length: file.pdf.length })
    : new StreamableFile(file.pdf, options);
}

/** The 200 of a PDF download, documented as a binary `application/pdf` body with its file name. */
export function ApiPdfOk(description: string, filenameExample: string) {
  return applyDecorators(
    ApiOkResponse({
      description: `${description} Sent as \`application/pdf\`, a download (\`Content-Disposition: attachment\`).`,
      headers: {
        'Content-Disposition': {
          description: 'attachment; the file name is the document number (or its type and id) with `.pdf`',
          schema: { type: 'string', maxLength: 200, example: `attachment; filename="${filenameExample}"` },
        },
      },
      content: { [PDF_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary', maxLength: 104857600 } } },
    }),
  );
}
