import { randomBytes } from 'node:crypto';
import { ValidationError } from '../errors';
import { decodeCursor, encodeCursor } from './cursor';
import { buildCursorPage, resolveCursorWindow } from './cursor-page';
import { nextOffset } from './offset';

const key = randomBytes(32);
const ctx = 'orders:shopA';

describe('cursor encoding', () => {
  it('round-trips a position and is opaque', () => {
    const c = encodeCursor(key, ctx, { t: 1731500000123, id: '673f1c2b9e1d4a0012345678' });
    expect(c).not.toContain('673f1c2b');
    expect(decodeCursor(key, ctx, c)).toEqual({ t: 1731500000123, id: '673f1c2b9e1d4a0012345678' });
  });

  it.each([
    ['another shop', (c: string) => decodeCursor(key, 'orders:shopB', c)],
    ['another list', (c: string) => decodeCursor(key, 'vendors:shopA', c)],
    ['another key', (c: string) => decodeCursor(randomBytes(32), ctx, c)],
    ['a flipped payload', (c: string) => decodeCursor(key, ctx, (c[0] === 'X' ? 'Y' : 'X') + c.slice(1))],
    ['a truncated signature', (c: string) => decodeCursor(key, ctx, c.slice(0, -2))],
    ['no separator', (c: string) => decodeCursor(key, ctx, c.replace('.', ''))],
    ['garbage', () => decodeCursor(key, ctx, 'not-a-cursor')],
    ['empty', () => decodeCursor(key, ctx, '')],
  ])('rejects a cursor from %s with a 422', (_name, run) => {
    const c = encodeCursor(key, ctx, { t: 1, id: 'a' });
    expect(() => run(c)).toThrow(ValidationError);
  });

  it('rejects a correctly signed payload of the wrong shape', () => {
    const payload = Buffer.from(JSON.stringify({ t: 1 })).toString('base64url');
    const forged = encodeCursor(key, ctx, { t: 1, id: 'x' }).replace(/^[^.]+/, payload);
    expect(() => decodeCursor(key, ctx, forged)).toThrow(ValidationError);
  });
});

describe('resolveCursorWindow', () => {
  const after = encodeCursor(key, ctx, { t: 5, id: 'e' });
  it('defaults to first=20 forwards', () => {
    expect(resolveCursorWindow({}, key, ctx)).toEqual({
      direction: 'forward',
      size: 20,
      boundary: undefined,
    });
  });
  it('reads first/after and last/before', () => {
    expect(resolveCursorWindow({ first: 5, after }, key, ctx)).toEqual({
      direction: 'forward',
      size: 5,
      boundary: { t: 5, id: 'e' },
    });
    expect(resolveCursorWindow({ last: 3, before: after }, key, ctx)).toEqual({
      direction: 'backward',
      size: 3,
      boundary: { t: 5, id: 'e' },
    });
    expect(resolveCursorWindow({ before: after }, key, ctx).size).toBe(20);
  });
  it.each([
    [{ first: 1, last: 1 }],
    [{ after, before: after }],
    [{ first: 1, before: after }],
    [{ last: 1, after }],
    [{ after: 'garbage' }],
  ])('rejects %j', (q) => {
    expect(() => resolveCursorWindow(q, key, ctx)).toThrow(ValidationError);
  });
});

describe('buildCursorPage', () => {
  const rows = [5, 4, 3].map((t) => ({ t, id: String(t) }));
  const pos = (r: { t: number; id: string }) => r;
  it('forward: trims the look-ahead row and reports both directions', () => {
    const page = buildCursorPage(rows, { direction: 'forward', size: 2 }, pos, key, ctx, {
      hasMoreBehind: false,
      totalCount: 9,
    });
    expect(page.items.map((r) => r.t)).toEqual([5, 4]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, totalCount: 9 });
    expect(decodeCursor(key, ctx, page.pageInfo.endCursor!)).toEqual({ t: 4, id: '4' });
  });
  it('backward: rows arrive oldest first and are returned newest first', () => {
    const asc = [1, 2, 3].map((t) => ({ t, id: String(t) }));
    const page = buildCursorPage(asc, { direction: 'backward', size: 2 }, pos, key, ctx, {
      hasMoreBehind: true,
      totalCount: null,
    });
    expect(page.items.map((r) => r.t)).toEqual([2, 1]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true, totalCount: null });
  });
  it('an empty page has null cursors', () => {
    const page = buildCursorPage([], { direction: 'forward', size: 2 }, pos, key, ctx, {
      hasMoreBehind: true,
      totalCount: 0,
    });
    expect(page.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: null,
      endCursor: null,
      totalCount: 0,
    });
  });
});

describe('nextOffset', () => {
  it.each([
    [{ offset: 0, limit: 10 }, 25, 10],
    [{ offset: 10, limit: 10 }, 25, 20],
    [{ offset: 20, limit: 10 }, 25, null],
    [{ offset: 0, limit: 10 }, 10, null],
    [{ offset: 50, limit: 10 }, 25, null],
    [{ offset: 0, limit: 100 }, 0, null],
  ])('%j of %d → %p', (page, total, expected) => expect(nextOffset(page, total)).toBe(expected));
});
