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
  glyphs: unknown[];
  positions: GlyphPositionLike[];
}
type Layout = (text: string, features?: unknown, ...rest: unknown[]) => GlyphRunLike;

export function rememberWordLayouts(font: { layout: Layout }): void {
  const layout = font.layout.bind(font);
  const runs = new Map<string, GlyphRunLike>();
  font.layout = (text: string, features?: unknown, ...rest: unknown[]): GlyphRunLike => {
    if (features !== undefined || rest.some((r) => r !== undefined)) return layout(text, features, ...rest);
    let known = runs.get(text);
    if (!known) {
      const run = layout(text);
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
