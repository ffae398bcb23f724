import { allOf, anyOf, valueOrAny } from './query-filters';
import { filterBranches } from './query-shape';

describe('query filters', () => {
  it('anyOf nests the alternatives under $and, which the shape analysis still multiplies out', () => {
    const f = { _id: 'x', state: 'received', ...anyOf([{ leaseUntil: null }, { leaseUntil: { $lt: 1 } }]) };
    expect(f).toEqual({
      _id: 'x',
      state: 'received',
      $and: [{ $or: [{ leaseUntil: null }, { leaseUntil: { $lt: 1 } }] }],
    });
    expect(filterBranches(f).map((b) => [b.eq.sort(), b.range])).toEqual([
      [['_id', 'leaseUntil', 'state'], []],
      [['_id', 'state'], ['leaseUntil']],
    ]);
  });

  it('allOf keeps every $and condition of every filter', () => {
    const seek = anyOf([{ at: { $lt: 2 } }, { at: 2, _id: { $lt: 'b' } }]);
    const facets = { kind: 'vendor', $and: [{ facets: 'a' }, { facets: 'b' }] };
    expect(allOf(seek, facets)).toEqual({
      kind: 'vendor',
      $and: [{ $or: seek.$and[0].$or }, { facets: 'a' }, { facets: 'b' }],
    });
    expect(allOf({}, { a: 1 })).toEqual({ a: 1 });
  });

  it('allOf refuses two filters on the same field instead of dropping one', () => {
    expect(() => allOf({ a: 1 }, { a: 2 })).toThrow("allOf: both filters constrain 'a'");
  });

  it('valueOrAny sends the whole enum when the filter is absent', () => {
    expect(valueOrAny(undefined, ['x', 'y'])).toEqual({ $in: ['x', 'y'] });
    expect(valueOrAny('x', ['x', 'y'])).toBe('x');
  });
});
