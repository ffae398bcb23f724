import { robotoFonts } from './pdf-fonts';
import { warmPdfRenderers } from './warm-up';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = require('@foliojs-fork/fontkit') as { create(b: Buffer): unknown };

describe('warming the PDF renderers up', () => {
  it('renders through both libraries and leaves the fonts parsed for the first real document', async () => {
    await expect(warmPdfRenderers()).resolves.toBeUndefined();
    const { normal, bold } = robotoFonts();
    expect(fontkit.create(normal)).toBe(fontkit.create(normal));
    expect(fontkit.create(bold)).toBe(fontkit.create(bold));
  });
});
