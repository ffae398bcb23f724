import { ValidationError } from '../common/errors';
import { dashboardPeriods } from './dashboard-period';

const now = new Date('2026-11-28T15:30:00.000Z');
const d = (iso: string) => new Date(iso);

describe('dashboardPeriods', () => {
  it('range: whole UTC days up to and including today, the previous period of equal length just before', () => {
    const p = dashboardPeriods({ range: '7d' }, now);
    expect(p.current).toEqual({ from: d('2026-11-22T00:00:00.000Z'), to: d('2026-11-29T00:00:00.000Z') });
    expect(p.previous).toEqual({ from: d('2026-11-15T00:00:00.000Z'), to: d('2026-11-22T00:00:00.000Z') });
    expect([p.start, p.end, p.range]).toEqual(['2026-11-22', '2026-11-28', '7d']);
  });

  it.each([
    ['30d', 30],
    ['3m', 90],
    ['6m', 180],
    ['1y', 365],
  ] as const)('%s spans %i days, and so does its previous period', (range, days) => {
    const p = dashboardPeriods({ range }, now);
    const span = (r: { from: Date; to: Date }) => (r.to.getTime() - r.from.getTime()) / 86_400_000;
    expect(span(p.current)).toBe(days);
    expect(span(p.previous!)).toBe(days);
    expect(p.previous!.to).toEqual(p.current.from);
  });

  it('neither form is range=30d', () => {
    expect(dashboardPeriods({}, now)).toEqual(dashboardPeriods({ range: '30d' }, now));
  });

  it('custom dates: inclusive UTC days, not compared', () => {
    const p = dashboardPeriods({ dateStart: '2026-03-01', dateEnd: '2026-03-31' }, now);
    expect(p.current).toEqual({ from: d('2026-03-01T00:00:00.000Z'), to: d('2026-04-01T00:00:00.000Z') });
    expect(p.previous).toBeNull();
    expect(dashboardPeriods({ dateStart: '2026-03-01', dateEnd: '2026-03-01' }, now).current.to).toEqual(
      d('2026-03-02T00:00:00.000Z'),
    );
  });

  it.each([
    [{ range: '7d', dateStart: '2026-03-01', dateEnd: '2026-03-02' }, /not both/],
    [{ dateStart: '2026-03-01' }, /go together/],
    [{ dateEnd: '2026-03-01' }, /go together/],
    [{ dateStart: '2026-02-29', dateEnd: '2026-03-02' }, /not a valid/],
    [{ dateStart: '2026-3-1', dateEnd: '2026-03-02' }, /not a valid/],
    [{ dateStart: '2026-03-02', dateEnd: '2026-03-01' }, /on or before/],
    [{ dateStart: '2024-02-29', dateEnd: '2026-03-01' }, /at most 731/],
  ])('refuses %j with a 422', (q, message) => {
    expect(() => dashboardPeriods(q as never, now)).toThrow(ValidationError);
    expect(() => dashboardPeriods(q as never, now)).toThrow(message);
  });

  it('accepts exactly 731 days', () => {
    expect(() => dashboardPeriods({ dateStart: '2024-03-01', dateEnd: '2026-03-01' }, now)).not.toThrow();
  });
});
