import { shareFonts } from './font-cache';

/**
 * The fonts every PDF of ours is set in: Roboto, as the pdfmake package ships it
 * (`pdfmake/build/vfs_fonts.js`, base64 in a JS module). Decoded once per process into Buffers;
 * nothing is read from disk paths or downloaded at run time. Parsed and shaped once per process for
 * every document (font-cache.ts).
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
  shareFonts(Object.values(decoded));
  return decoded;
}
