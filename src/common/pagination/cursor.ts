import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors';

/** Position of a row in a newest-first list: its sort time (ms) and id (the tie-breaker). */
export interface CursorPosition {
  t: number;
  id: string;
}

const SIG_BYTES = 16;

/**
 * Opaque, tamper-evident cursor: base64url(JSON position) + "." + HMAC over (context, position).
 * The context names the list and the caller's scope (e.g. `orders:<shopId>:<vendorId>`), so a cursor
 * from another list, shop or vendor fails verification just like a garbled one.
 */
export function encodeCursor(key: Buffer, context: string, pos: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([pos.t, pos.id])).toString('base64url');
  return `${payload}.${sign(key, context, payload)}`;
}

export function decodeCursor(key: Buffer, context: string, cursor: string, param = 'cursor'): CursorPosition {
  const invalid = () =>
    new ValidationError(`${param} is not a valid cursor for this list`, {
      fields: { [param]: ['invalid cursor'] },
    });
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > 512) throw invalid();
  const payload = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
  const expected = Buffer.from(sign(key, context, payload), 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      Number.isFinite(parsed[0]) &&
      typeof parsed[1] === 'string'
    ) {
      return { t: parsed[0] as number, id: parsed[1] as string };
    }
  } catch {
    // falls through to the same answer as a bad signature
  }
  throw invalid();
}

function sign(key: Buffer, context: string, payload: string): string {
  return createHmac('sha256', key)
    .update(context)
    .update('\0')
    .update(payload)
    .digest()
    .subarray(0, SIG_BYTES)
    .toString('base64url');
}
