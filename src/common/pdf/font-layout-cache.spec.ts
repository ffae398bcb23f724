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
    calls.length = 0; // the figure characters' check
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
    calls.length = 0;
    font.layout('ab', ['smcp']);
    font.layout('ab', ['smcp']);
    expect(calls).toEqual(['ab+f', 'ab+f']);
  });

  it('puts a figure together from its characters when no pair of them kerns, else shapes it', () => {
    const { font, calls } = fakeFont();
    rememberWordLayouts(font);
    calls.length = 0;
    expect(font.layout('#1042.50').positions.map((p) => p.xAdvance)).toEqual(
      [...'#1042.50'].map((c) => c.charCodeAt(0)),
    );
    expect(calls).toEqual([]);
    const kerned = fakeFont();
    const layout = kerned.font.layout;
    kerned.font.layout = (text: string, features?: unknown) => {
      const run = layout(text, features);
      if (text === '1.') run.positions[0].xAdvance -= 3; // a kerning pair among the figures
      return run;
    };
    rememberWordLayouts(kerned.font);
    kerned.calls.length = 0;
    kerned.font.layout('#1042.50');
    expect(kerned.calls).toEqual(['#1042.50']);
  });

  it('composes Roboto figures exactly as fontkit shapes them', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fontkit = require('@foliojs-fork/fontkit') as { create(b: Buffer): { layout(t: string): Run } };
    for (const file of [robotoFonts().normal, robotoFonts().bold]) {
      const shared = fontkit.create(file);
      const fresh = fontkit.create(Buffer.from(file));
      const chars = '0123456789.,-:/#+% ';
      let seed = 7;
      const next = () => (seed = (seed * 48271) % 2147483647);
      const samples = Array.from({ length: 400 }, () =>
        Array.from({ length: 1 + (next() % 12) }, () => chars[next() % chars.length]).join(''),
      );
      for (const t of [...samples, '2026-11-30', '#1042', '-1,249.50', '12:30', '1//2']) {
        const [a, b] = [shared.layout(t), fresh.layout(t)];
        expect({ t, ids: a.glyphs.map((g) => g.id), pos: a.positions.map((p) => ({ ...p })) }).toEqual({
          t,
          ids: b.glyphs.map((g) => g.id),
          pos: b.positions.map((p) => ({ ...p })),
        });
      }
    }
  });

  it('does not shape a Roboto figure it has not seen (fontkit’s layout engine is not called)', () => {
    const fonts = robotoFonts();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fontkit = require('@foliojs-fork/fontkit') as {
      create(b: Buffer): { layout(t: string): Run; _layoutEngine: { layout: (...a: unknown[]) => unknown } };
    };
    const font = fontkit.create(fonts.normal);
    const engine = font._layoutEngine;
    const shape = engine.layout.bind(engine);
    const shaped: string[] = [];
    engine.layout = (...a: unknown[]) => (shaped.push(String(a[0])), shape(...a));
    try {
      font.layout('#99817.03');
      font.layout('2031-07-19 ');
      font.layout('SKU-4471');
    } finally {
      engine.layout = shape;
    }
    expect(shaped).toEqual(['SKU-4471']);
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
