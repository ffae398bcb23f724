import { parseDateTime } from './date-time';

describe('parseDateTime', () => {
  it.each([
    '2026-W48-5',
    '2026-W48',
    '2026-332',
    '20261127',
    '2026-11-27T10',
    '2026-11-27T1000Z',
    '2026-02-30',
    'x',
    '',
  ])('reads no instant from %j (ISO 8601 allows some of them; no parser reads them)', (value) =>
    expect(parseDateTime(value)).toBeNull(),
  );

  it.each([
    ['2026-11-27', '2026-11-27T00:00:00.000Z'],
    ['2026-11-27T10:00:00Z', '2026-11-27T10:00:00.000Z'],
    ['2026-11-27T10:00:00.000+01:00', '2026-11-27T09:00:00.000Z'],
  ])('reads %j as %s', (value, iso) => expect(parseDateTime(value)?.toISOString()).toBe(iso));

  it('is only for strings', () => expect(parseDateTime(1764237600000)).toBeNull());
});
