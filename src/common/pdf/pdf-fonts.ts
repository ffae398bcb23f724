import { rememberWordLayouts } from './font-layout-cache';

/**
 * The fonts every PDF of ours is set in: Roboto, as the pdfmake package ships it
 * (`pdfmake/build/vfs_fonts.js`, base64 in a JS module). Decoded once per process into Buffers;
 * nothing is read from disk paths or downloaded at run time.
 */
export interface FontFiles {
  normal: Buffer;
  bold: Buffer;
  italics: Buffer;
  bolditalics: Buffer;
}

export const PDF_FONT = 'Roboto';

let decoded: FontFiles | null = null;

export function robotoFonts(): FontFiles {
  if (decoded) return decoded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vfs = require('pdfmake/build/vfs_fonts.js') as Record<string, string>;
  const file = (name: string) => Buffer.from(vfs[name], 'base64');
  decoded = {
    normal: file('Roboto-Regular.ttf'),
    bold: file('Roboto-Medium.ttf'),
    italics: file('Roboto-Italic.ttf'),
    bolditalics: file('Roboto-MediumItalic.ttf'),
  };
  parseOncePerProcess(Object.values(decoded));
  return decoded;
}

type FontkitModule = { create(buffer: Buffer, postscriptName?: string): unknown };

/**
 * pdfkit (and pdfmake, which draws with it) opens a new fontkit Font from the font's Buffer for
 * every document, so each document parsed the font's tables (cmap, GSUB/GPOS, glyf) again and
 * started with cold glyph caches: about a third of a 100-order invoice's render (issue 32,
 * docs-notes/pdf-speed.md). fontkit's `create` is wrapped so that OUR buffers (and only those)
 * give the same parsed Font every time. A Font is read-only to its users (pdfkit builds each
 * document's subset from it) and every call into it is synchronous, so documents drawn
 * side by side may share it; the bytes of a document are unchanged (checked by the renderers'
 * determinism tests).
 */
function parseOncePerProcess(buffers: Buffer[]): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fontkit = require('@foliojs-fork/fontkit') as FontkitModule;
  const create = fontkit.create.bind(fontkit);
  const parsed = new Map<Buffer, Map<string, unknown>>(buffers.map((b) => [b, new Map()]));
  fontkit.create = (buffer: Buffer, postscriptName?: string): unknown => {
    const fonts = parsed.get(buffer);
    if (!fonts) return create(buffer, postscriptName);
    const key = postscriptName ?? '';
    let font = fonts.get(key);
    if (font === undefined) {
      font = create(buffer, postscriptName);
      rememberWordLayouts(font as Parameters<typeof rememberWordLayouts>[0]);
      fonts.set(key, font);
    }
    return font;
  };
}
