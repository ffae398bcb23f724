import { DomainError } from '../errors';
import { dayEnd, dayOf, dayRangeFilter, dayStart } from './day-range';

describe('report day ranges (UTC, inclusive)', () => {
  it('turns days into the first and last instant', () => {
    expect(dayStart('2025-02-28')?.toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(dayEnd('2025-02-28')?.toISOString()).toBe('2025-02-28T23:59:59.999Z');
    expect(dayEnd('2024-02-29')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
    expect(dayOf(new Date('2025-03-01T23:59:59.999Z'))).toBe('2025-03-01');
  });

  it('refuses what is not a calendar day', () => {
    for (const bad of ['2025-02-30', '2025-13-01', '2025-1-01', '20250101', '2025-01-01T00:00:00Z', '']) {
      expect(dayStart(bad)).toBeNull();
    }
  });

  it('builds an inclusive filter, or none', () => {
    expect(dayRangeFilter()).toBeUndefined();
    expect(dayRangeFilter('2025-01-01', '2025-01-31')).toEqual({
      $gte: new Date('2025-01-01T00:00:00.000Z'),
      $lte: new Date('2025-01-31T23:59:59.999Z'),
    });
    expect(dayRangeFilter(undefined, '2025-01-31')).toEqual({ $lte: new Date('2025-01-31T23:59:59.999Z') });
    expect(dayRangeFilter('2025-01-05', '2025-01-05')).toBeDefined();
  });

  it('start after end is a 422', () => {
    expect(() => dayRangeFilter('2025-02-01', '2025-01-31')).toThrow(DomainError);
    try {
      dayRangeFilter('2025-02-01', '2025-01-31');
    } catch (e) {
      expect((e as DomainError).status).toBe(422);
    }
  });
});
