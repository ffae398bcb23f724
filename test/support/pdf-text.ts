import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The text of a PDF as a real parser reads it: poppler's `pdftotext -layout` (Debian poppler-utils,
 * installed by scripts/pdftools.sh in CI). Whitespace runs are kept (the layout mode aligns columns).
 */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'pdftext-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const out = spawnSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`pdftotext failed: ${out.stderr || out.error?.message}`);
    return out.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The words of a text line, for checking a table row whatever the column spacing. */
export const words = (line: string): string[] => line.trim().split(/\s+/);

/** The lines of the text that contain `needle`. */
export const linesWith = (text: string, needle: string): string[] =>
  text.split('\n').filter((l) => l.includes(needle));

/** The document information dictionary as poppler's `pdfinfo -isodates` reads it (key → value). */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdfinfo-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const out = spawnSync('pdfinfo', ['-isodates', file], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`pdfinfo failed: ${out.stderr || out.error?.message}`);
    return Object.fromEntries(
      out.stdout
        .split('\n')
        .filter((l) => l.includes(':'))
        .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
