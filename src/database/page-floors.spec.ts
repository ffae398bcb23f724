import { PageFloors } from './page-floors';

describe('PageFloors', () => {
  const at = (d: number) => new Date(Date.UTC(2025, 0, d));

  it('remembers the last end of a page per key, and forgets on request', () => {
    const f = new PageFloors();
    f.remember('a', at(1));
    f.remember('a', at(2));
    f.remember('b', at(3));
    expect([f.get('a'), f.get('b'), f.get('c')]).toEqual([at(2), at(3), undefined]);
    f.forget('a');
    expect(f.get('a')).toBeUndefined();
  });

  it('keeps no floor for a row without a time (it sorts last: nothing to bound by)', () => {
    const f = new PageFloors();
    f.remember('a', null);
    f.remember('b', undefined);
    expect([f.get('a'), f.get('b')]).toEqual([undefined, undefined]);
  });

  it('forgets the least recently written key beyond its capacity', () => {
    const f = new PageFloors(2);
    f.remember('a', at(1));
    f.remember('b', at(2));
    f.remember('a', at(4)); // written again: now the newest
    f.remember('c', at(3));
    expect([f.get('a'), f.get('b'), f.get('c')]).toEqual([at(4), undefined, at(3)]);
  });
});
