import { rememberWordLayouts } from './font-layout-cache';
import { pdfKitDocument } from './pdfkit';
import { robotoFonts } from './pdf-fonts';

type Pos = { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number };
type Run = { glyphs: { id: number }[]; positions: Pos[]; readonly advanceWidth: number };

class FakeRun implements Run {
  constructor(
    public glyphs: { id: number }[],
    public positions: Pos[],
  ) {}
  get advanceWidth(): number {
    return this.positions.reduce((s, p) => s + p.xAdvance, 0);
  }
}

function fakeFont() {
  const calls: string[] = [];
  const font = {
    layout: (text: string, features?: unknown): Run => {
      calls.push(`${text}${features ? '+f' : ''}`);
      const glyphs = [...text].map((c) => ({ id: c.charCodeAt(0) }));
      return new FakeRun(
        glyphs,
        glyphs.map((g) => ({ xAdvance: g.id, yAdvance: 0, xOffset: 0, yOffset: 0 })),
      );
    },
  };
  return { font, calls };
}

describe('word layouts remembered across documents (issue 32)', () => {
  it('shapes a word once; each caller gets positions of its own (pdfkit scales them in place)', () => {
    const { font, calls } = fakeFont();
    rememberWordLayouts(font);
    const a = font.layout('ab');
    a.positions.forEach((p) => (p.xAdvance *= 0.5)); // as pdfkit's layoutRun does
    const b = font.layout('ab');
    expect(calls).toEqual(['ab']);
    expect(b.positions.map((p) => p.xAdvance)).toEqual([97, 98]);
    expect(b.advanceWidth).toBe(195);
    expect(b.glyphs.map((g) => g.id)).toEqual([97, 98]);
    b.positions[0].xAdvance = 0;
    expect(font.layout('ab').positions[0].xAdvance).toBe(97);
  });

  it('does not remember a layout with OpenType features asked for', () => {
    const { font, calls } = fakeFont();
    rememberWordLayouts(font);
    font.layout('ab', ['smcp']);
    font.layout('ab', ['smcp']);
    expect(calls).toEqual(['ab+f', 'ab+f']);
  });

  it('measures text in a second document exactly as a freshly parsed font does', () => {
    const at = new Date('2026-11-30T12:00:00.000Z');
    const texts = ['Commission on order #1042', '1,249.50 Zoë Жук …', 'office ffi'];
    const first = texts.map((t) => pdfKitDocument(at, 'a').fontSize(9).widthOfString(t));
    const second = texts.map((t) => pdfKitDocument(at, 'b').fontSize(9).widthOfString(t));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fontkit = require('@foliojs-fork/fontkit') as {
      create(b: Buffer): { layout(t: string): Run; unitsPerEm: number };
    };
    const fresh = fontkit.create(Buffer.from(robotoFonts().normal)); // a copy: not the shared font
    const expected = texts.map((t) =>
      t.split(/(?<= )/).reduce((w, word) => w + (fresh.layout(word).advanceWidth * 9) / fresh.unitsPerEm, 0),
    );
    expect(second).toEqual(first);
    second.forEach((w, i) => expect(w).toBeCloseTo(expected[i], 9));
  });
});
