/**
 * The shapes of the legal identity fields documents print (DESIGN §14): the shop's legal settings and
 * the vendor tax profile validate them the same way. Bounded and plain, never a format per country:
 * a tax id is checked by the tax office, not here; what is refused is what no tax id looks like.
 */
export const LEGAL_NAME_MAX = 200;
/** Tax ids, VAT ids and business registration numbers: letters, digits, space . - / (2–32 chars). */
export const IDENTIFIER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 .\\-/]{0,30}[A-Za-z0-9]$';
export const IDENTIFIER_RE = new RegExp(IDENTIFIER_PATTERN);
export const IDENTIFIER_MAX = 32;
/** ISO 3166-1 alpha-2, upper case. */
export const COUNTRY_PATTERN = '^[A-Z]{2}$';

/** Document number prefixes: 1–10 characters of A–Z 0–9 - _ / (DESIGN §14). */
export const PREFIX_PATTERN = '^[A-Z0-9\\-_/]{1,10}$';
export const PREFIX_MAX = 10;

/** What a sealed value reads as wherever it must not appear (audit snapshots, logs). */
export const SEALED = '[sealed]';

/**
 * A tax id as a reader may see it: its last 4 characters behind a mask, or the mask alone when the
 * id is too short to show any of it without showing most of it. Null when there is none.
 */
export function maskedTail(value: string | null | undefined): string | null {
  if (!value) return null;
  const compact = value.replace(/[\s.\-/]/g, '');
  return compact.length >= 8 ? `•••• ${compact.slice(-4)}` : '••••';
}

/** The last 4 characters of a tax id the API shows (`taxIdLast4`), null when too short to show any. */
export function lastFour(value: string | null | undefined): string | null {
  if (!value) return null;
  const compact = value.replace(/[\s.\-/]/g, '');
  return compact.length >= 8 ? compact.slice(-4) : null;
}
