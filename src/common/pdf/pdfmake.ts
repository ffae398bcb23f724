import type { TDocumentDefinitions } from 'pdfmake/interfaces';
import { PDF_FONT, robotoFonts } from './pdf-fonts';

type Printer = {
  createPdfKitDocument(def: TDocumentDefinitions): NodeJS.ReadableStream & { end(): void };
};
let printer: Printer | null = null;

function pdfPrinter(): Printer {
  if (printer) return printer;
  // pdfmake's Node entry point is its server-side printer (PdfPrinter)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PdfPrinter = require('pdfmake') as new (fonts: Record<string, unknown>) => Printer;
  printer = new PdfPrinter({ [PDF_FONT]: robotoFonts() });
  return printer;
}

/**
 * A pdfmake document definition rendered to bytes. Deterministic: the metadata dates are the given
 * instant (never "now"), the producer is fixed and pdfmake adds no random id, so the same definition
 * gives the same bytes.
 */
export function renderPdfmake(def: TDocumentDefinitions, at: Date, title: string): Promise<Buffer> {
  const doc = pdfPrinter().createPdfKitDocument({
    ...def,
    info: { title, creator: 'Marketplace Admin API', producer: 'pdfmake', creationDate: at, modDate: at },
    defaultStyle: { font: PDF_FONT, fontSize: 9, ...(def.defaultStyle ?? {}) },
  });
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}
