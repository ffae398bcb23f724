/**
 * JSON.parse that never loses a digit of a store-platform id. The platform's ids are 64-bit
 * integers sent as JSON numbers; `JSON.parse` turns 820982911946154508 into 820982911946154500.
 * Every integer literal outside the safe-integer range is quoted before parsing, so it arrives as
 * the decimal string it was sent as (fractional amounts and safe integers are left as numbers).
 * Node 20 has no source-text access in revivers, hence this one pass over the text.
 */
export function parseJsonLossless(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** The text with every integer literal beyond ±(2^53 − 1) turned into a string literal. */
export function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i += 2;
        else if (s === 0x22) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < n && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"${literal}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}

function isNumberChar(c: number): boolean {
  // digits . e E + -
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}
