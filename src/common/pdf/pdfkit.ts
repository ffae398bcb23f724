import { PDF_FONT, robotoFonts } from './pdf-fonts';

/**
 * pdfkit (the fork pdfmake itself renders with, @foliojs-fork/pdfkit) for the one document pdfmake
 * is too slow for: a statement of thousands of rows. pdfmake lays the whole table out in memory
 * before the first byte (a 5,000-row statement: 11 s and +157 MB RSS measured); drawing rows
 * directly as they are read is 5–6 times faster at half the memory (docs-notes/doc-pdf.md).
 */
export type PdfKitDoc = PDFKit.PDFDocument;

export const PDF_BOLD = `${PDF_FONT}-Medium`;

/**
 * A landscape A4 document written out page by page: a page's content goes to the stream when the
 * next page is added (no bufferPages, which held every page until the end), so its footer is drawn
 * before leaving it. Deterministic: the metadata dates are `at`.
 */
export function pdfKitDocument(at: Date, title: string): PdfKitDoc {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PDFDocument = require('@foliojs-fork/pdfkit') as new (o: PDFKit.PDFDocumentOptions) => PdfKitDoc;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    bufferPages: false,
    autoFirstPage: true,
    info: {
      Title: title,
      Creator: 'Marketplace Admin API',
      Producer: 'pdfkit',
      CreationDate: at,
      ModDate: at,
    },
  });
  const fonts = robotoFonts();
  doc.registerFont(PDF_FONT, fonts.normal);
  doc.registerFont(PDF_BOLD, fonts.bold);
  doc.font(PDF_FONT);
  return doc;
}
