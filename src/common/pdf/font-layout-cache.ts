/**
 * A word's shaping, remembered across documents (issue 32). pdfkit lays each word out with fontkit
 * (OpenType GSUB/GPOS shaping: most of a PDF's CPU time) and caches it per document only, so every
 * invoice shaped "Commission", "on", "order" and its dates and amounts again. The shared fontkit
 * Font (pdf-fonts.ts) remembers the run of each word pdfkit asks for without features:
 * the glyphs and an unscaled copy of their positions. Each caller gets fresh position objects,
 * since pdfkit scales them in place. At most MAX_WORDS per font, then the memory starts over.
 */
const MAX_WORDS = 20_000;

interface GlyphPositionLike {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface GlyphRunLike {
  glyphs: { id: number }[];
  positions: GlyphPositionLike[];
}
type Layout = (text: string, features?: unknown, ...rest: unknown[]) => GlyphRunLike;

export function rememberWordLayouts(font: { layout: Layout }): void {
  const layout = font.layout.bind(font);
  const runs = new Map<string, GlyphRunLike>();
  const compose = figureComposer(layout);
  font.layout = (text: string, features?: unknown, ...rest: unknown[]): GlyphRunLike => {
    if (features !== undefined || rest.some((r) => r !== undefined)) return layout(text, features, ...rest);
    let known = runs.get(text);
    if (!known) {
      const run = compose(text) ?? layout(text);
      if (runs.size >= MAX_WORDS) runs.clear();
      known = Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRunLike, run, {
        positions: run.positions.map(copy),
      });
      runs.set(text, known);
      return run;
    }
    return Object.assign(Object.create(Object.getPrototypeOf(known) as object) as GlyphRunLike, known, {
      glyphs: [...known.glyphs],
      positions: known.positions.map(copy),
    });
  };
}

const copy = (p: GlyphPositionLike): GlyphPositionLike => ({
  xAdvance: p.xAdvance,
  yAdvance: p.yAdvance,
  xOffset: p.xOffset,
  yOffset: p.yOffset,
});

/** The characters amounts, dates, quantities and order numbers are written with. */
const FIGURE_CHARS = '0123456789.,-:#+% ';
const FIGURES = /^[0-9.,\-:#+% ]+$/;

/**
 * A figure ("1249.50", "2026-11-30", "#1042") is most of a statement's never-seen-before words,
 * and shaping each is the dear part. When the font shapes every PAIR of these characters as the two
 * characters side by side (no kerning, no ligature among them: checked here, once per font), a
 * figure is its characters' runs put together, with no shaping. Else (another font) undefined:
 * every word is shaped.
 */
function figureComposer(layout: Layout): (text: string) => GlyphRunLike | undefined {
  const single = new Map([...FIGURE_CHARS].map((c) => [c, layout(c)]));
  const one = (c: string) => single.get(c) as GlyphRunLike;
  if ([...single.values()].some((r) => r.glyphs.length !== 1)) return () => undefined;
  for (const a of FIGURE_CHARS) {
    for (const b of FIGURE_CHARS) {
      const pair = layout(a + b);
      const apart = [one(a), one(b)];
      const same =
        pair.glyphs.length === 2 &&
        pair.glyphs.every((g, i) => g.id === apart[i].glyphs[0].id) &&
        pair.positions.every((p, i) => samePosition(p, apart[i].positions[0]));
      if (!same) return () => undefined;
    }
  }
  const proto = Object.getPrototypeOf(one('0')) as object;
  return (text) => {
    if (!FIGURES.test(text)) return undefined;
    const chars = [...text].map(one);
    return Object.assign(Object.create(proto) as GlyphRunLike, one('0'), {
      glyphs: chars.map((r) => r.glyphs[0]),
      positions: chars.map((r) => copy(r.positions[0])),
    });
  };
}

const samePosition = (p: GlyphPositionLike, q: GlyphPositionLike): boolean =>
  p.xAdvance === q.xAdvance &&
  p.yAdvance === q.yAdvance &&
  p.xOffset === q.xOffset &&
  p.yOffset === q.yOffset;
