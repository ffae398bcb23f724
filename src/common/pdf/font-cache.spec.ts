import { robotoFonts } from './pdf-fonts';
import { renderPdfmake } from './pdfmake';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require('@foliojs-fork/fontkit') as {
  create(
    b: Buffer,
    family?: string | null,
  ): {
    layout(t: string): { positions: Array<{ xAdvance: number }>; advanceWidth: number };
  };
};

const AT = new Date('2026-11-30T12:00:00.000Z');
const definition = (words: string[]) => ({
  content: [{ table: { body: words.map((w, i) => [w, `${i}.00 AV Wa office ﬁ`]) } }],
});

describe('fonts shared by every PDF of the process', () => {
  const fonts = robotoFonts();

  it('opens each of our font files once: the same fontkit font every time', () => {
    expect(fontkit.create(fonts.normal)).toBe(fontkit.create(fonts.normal));
    expect(fontkit.create(fonts.bold)).not.toBe(fontkit.create(fonts.normal));
  });

  it('answers a remembered word with positions of its own (pdfkit scales them in place)', () => {
    const font = fontkit.create(fonts.normal);
    const first = font.layout('AVAWa');
    const width = first.advanceWidth;
    for (const p of first.positions) p.xAdvance *= 3;
    const again = font.layout('AVAWa');
    expect(again.positions).not.toBe(first.positions);
    expect(again.advanceWidth).toBe(width);
    expect(again.advanceWidth).toBeGreaterThan(0);
  });

  it('renders the same bytes with the caches cold and warm', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `Commission on order #${1000 + i}`);
    const cold = await renderPdfmake(definition(words), AT, 'x');
    const warm = await renderPdfmake(definition(words), AT, 'x');
    expect(warm.equals(cold)).toBe(true);
    expect(cold.length).toBeGreaterThan(1000);
  });
});
