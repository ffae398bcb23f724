import { robotoFonts } from './pdf-fonts';
import { renderPdfmake } from './pdfmake';

type Fontkit = { create(b: Buffer, name?: string): unknown };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = () => require('@foliojs-fork/fontkit') as Fontkit;

describe('PDF fonts: parsed once per process (issue 32)', () => {
  it('gives the same parsed font for our buffers, and a fresh one for any other buffer', () => {
    const fonts = robotoFonts();
    const first = fontkit().create(fonts.normal);
    expect(fontkit().create(fonts.normal)).toBe(first);
    expect(fontkit().create(fonts.bold)).not.toBe(first);
    const copy = Buffer.from(fonts.normal);
    expect(fontkit().create(copy)).not.toBe(fontkit().create(copy));
  });

  it('renders the same bytes with the shared font as with the first one', async () => {
    const def = { content: [{ text: 'Commission 12.34 · Zoë Ωmega Жук …' }, { text: 'bold', bold: true }] };
    const at = new Date('2026-11-30T12:00:00.000Z');
    const [a, b] = [await renderPdfmake(def, at, 't'), await renderPdfmake(def, at, 't')];
    expect(a.subarray(0, 5).toString()).toBe('%PDF-');
    expect(a.equals(b)).toBe(true);
  });
});
