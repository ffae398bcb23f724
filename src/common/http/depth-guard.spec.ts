import { MAX_NESTING_DEPTH, nestingDepth, queryDepth } from './depth-guard';

const nest = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? { a: v } : [v];
  return v;
};

describe('nesting depth', () => {
  it('counts objects and arrays, scalars are 0', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth(null)).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(nestingDepth(nest(MAX_NESTING_DEPTH))).toBe(MAX_NESTING_DEPTH);
  });

  it('stops counting past the limit, without recursion (100,000 levels)', () => {
    expect(nestingDepth(nest(100_000))).toBe(MAX_NESTING_DEPTH + 1);
  });

  it('counts bracket nesting in query keys', () => {
    expect(queryDepth({ limit: '5' })).toBe(1);
    expect(queryDepth({ 'a[b][c]': '1' })).toBe(3);
    expect(queryDepth({ ['a' + '[x]'.repeat(2000)]: '1' })).toBeGreaterThan(MAX_NESTING_DEPTH);
    expect(queryDepth({ ['a' + '[x]'.repeat(MAX_NESTING_DEPTH - 1)]: '1' })).toBe(MAX_NESTING_DEPTH);
  });
});
