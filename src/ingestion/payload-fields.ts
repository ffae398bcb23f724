/**
 * The field readers of store-platform payloads (orders, refunds, products, fulfillments): each
 * reads one JSON value as the type it must be, or throws `PayloadError` — retrying would never help,
 * so the delivery's job fails at once and stays inspectable.
 */
export class PayloadError extends Error {}

type Json = Record<string, unknown>;

const DECIMAL_RE = /^-?\d+(\.\d+)?$/;

export function obj(v: unknown, what: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new PayloadError(`${what} must be an object`);
  return v as Json;
}

export function objOrNull(v: unknown): Json | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function id(v: unknown, what: string): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n === 'number' && Number.isInteger(n) && n > Number.MAX_SAFE_INTEGER) {
    // Order and line item ids are numbers in the API (spec): one beyond 2^53 cannot be kept exactly.
    throw new PayloadError(`${what} ${String(v)} is beyond 2^53 and cannot be stored exactly`);
  }
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
    throw new PayloadError(`${what} must be a positive integer id`);
  }
  return n;
}

/** An id the API returns as a string (product, variant, refund): every digit kept. */
export function idString(v: unknown, what: string): string {
  const s =
    typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^[1-9]\d{0,19}$/.test(s)) throw new PayloadError(`${what} must be a positive integer id`);
  return s;
}

export function idStringOrNull(v: unknown): string | null {
  try {
    return v === null || v === undefined ? null : idString(v, 'id');
  } catch {
    return null;
  }
}

export function idOrNull(v: unknown): number | null {
  try {
    return v === null || v === undefined ? null : id(v, 'id');
  } catch {
    return null;
  }
}

export function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
}

export function strOrNull(v: unknown): string | null {
  const s = str(v).trim();
  return s === '' ? null : s;
}

export function decimal(v: unknown, what: string, fallback?: string): string {
  if ((v === null || v === undefined || v === '') && fallback !== undefined) return fallback;
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!DECIMAL_RE.test(s)) throw new PayloadError(`${what} must be a decimal amount`);
  return s;
}

export function int(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new PayloadError(`${what} must be a non-negative integer`);
  }
  return v;
}

export function date(v: unknown, what: string, fallback?: Date): Date {
  if ((v === null || v === undefined || v === '') && fallback) return fallback;
  const d = typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime())) throw new PayloadError(`${what} must be a date-time`);
  return d;
}

export function dateOrNull(v: unknown): Date | null {
  try {
    return v ? date(v, 'date') : null;
  } catch {
    return null;
  }
}
