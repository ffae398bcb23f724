/**
 * Font work shared by every PDF of the process. pdfkit (under pdfmake and our statement) opens each
 * font anew for every document — `fontkit.create(buffer)`, then decodes its tables again — and
 * shapes every word anew (its word cache lives on the document). A 100-order invoice spent most of
 * its time there (profile: table decoding and OpenType shaping ~60 % of a render). Here:
 * - our font files (the same Buffers every time, pdf-fonts.ts) are parsed once per process;
 * - shaping a word (`font.layout(text)` without custom features: a pure function of the font and the
 *   text) is remembered, up to LAYOUT_CACHE_SIZE words per font, oldest dropped first.
 * pdfkit scales a run's positions in place after shaping, so every answer is a fresh copy of the
 * cached run's positions; the glyphs (fontkit's own cached objects, never written) are shared.
 * Output is byte-for-byte the same as without the cache (tested).
 */
const LAYOUT_CACHE_SIZE = 20_000;

interface GlyphRun {
  glyphs: unknown[];
  positions: object[] | null;
}
interface FontkitFont {
  layout(text: string, features?: unknown, ...rest: unknown[]): GlyphRun;
}
interface Fontkit {
  create(buffer: Buffer, family?: string | null): FontkitFont;
}

let installed = false;

/** Installs the shared fonts for these font files (idempotent). */
export function shareFonts(files: Buffer[]): void {
  if (installed) return;
  installed = true;
  // the fontkit pdfkit itself requires (one module instance: its `create` is read at each call)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fontkit = require('@foliojs-fork/fontkit') as Fontkit;
  const open = fontkit.create.bind(fontkit);
  const ours = new Set(files);
  const opened = new Map<Buffer, FontkitFont>();
  fontkit.create = (buffer: Buffer, family?: string | null): FontkitFont => {
    if (family != null || !ours.has(buffer)) return open(buffer, family);
    let font = opened.get(buffer);
    if (!font) {
      font = rememberLayouts(open(buffer));
      opened.set(buffer, font);
    }
    return font;
  };
}

function rememberLayouts(font: FontkitFont): FontkitFont {
  const layout = font.layout.bind(font);
  const runs = new Map<string, GlyphRun>();
  font.layout = (text: string, features?: unknown, ...rest: unknown[]): GlyphRun => {
    if (features !== undefined || rest.length > 0 || typeof text !== 'string') {
      return layout(text, features, ...rest);
    }
    let run = runs.get(text);
    if (!run) {
      run = layout(text);
      if (runs.size >= LAYOUT_CACHE_SIZE) runs.delete(runs.keys().next().value as string);
      runs.set(text, run);
    }
    return copyOf(run);
  };
  return font;
}

/** A run with its own position objects (the caller may scale them) and the same glyphs. */
function copyOf(run: GlyphRun): GlyphRun {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRun, run);
  copy.glyphs = run.glyphs.slice();
  copy.positions = run.positions
    ? run.positions.map((p) => Object.assign(Object.create(Object.getPrototypeOf(p) as object) as object, p))
    : null;
  return copy;
}
