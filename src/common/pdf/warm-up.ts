import { PDF_BOLD, pdfKitDocument } from './pdfkit';
import { PDF_FONT } from './pdf-fonts';
import { renderPdfmake } from './pdfmake';

const SAMPLE =
  'Payout statement Commission invoice 0123456789.,-–— #ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz';

/**
 * Pays the PDF renderers' one-time costs once the API is listening, not on the first document a
 * user asks for: loading pdfkit and pdfmake, parsing our fonts (shared by every document after,
 * font-cache.ts), compiling the layout code. About a second of CPU; a 5,000-row statement as the
 * process's first PDF took 3.5 s and +110 MB RSS, later ones 1.5–1.9 s (docs/performance.md).
 */
export async function warmPdfRenderers(): Promise<void> {
  const at = new Date(0);
  await renderPdfmake({ content: [{ text: SAMPLE }, { text: SAMPLE, bold: true }] }, at, 'warm-up');
  const doc = pdfKitDocument(at, 'warm-up');
  await new Promise<void>((resolve, reject) => {
    doc.on('data', () => undefined);
    doc.on('end', resolve);
    doc.on('error', reject);
    doc.font(PDF_FONT).fontSize(7.5).text(SAMPLE, 36, 36, { lineBreak: false });
    doc.font(PDF_BOLD).text(SAMPLE, 36, 48, { lineBreak: false });
    doc.end();
  });
}
