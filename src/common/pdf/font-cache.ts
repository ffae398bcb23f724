import { rememberWordLayouts } from './font-layout-cache';

/**
 * Font work shared by every PDF of the process. pdfkit (under pdfmake and our statement) opens each
 * font anew for every document — `fontkit.create(buffer)`, then decodes its tables again — and
 * shapes every word anew (its word cache lives on the document). A 100-order invoice spent most of
 * its time there (profile: table decoding and OpenType shaping ~60 % of a render). Here:
 * - our font files (the same Buffers every time, pdf-fonts.ts) are parsed once per process;
 * - shaping a word (`font.layout(text)` without custom features: a pure function of the font and the
 *   text) is remembered, and figures are put together from their characters (font-layout-cache.ts).
 * Output is byte-for-byte the same as without the cache (tested).
 */
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
      font = open(buffer);
      rememberWordLayouts(font as Parameters<typeof rememberWordLayouts>[0]);
      opened.set(buffer, font);
    }
    return font;
  };
}
