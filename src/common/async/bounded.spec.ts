import { forEachBounded } from './bounded';

describe('forEachBounded', () => {
  it('never runs more than the limit at once and visits every item once', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachBounded([...Array(23).keys()], 4, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, (i % 3) + 1));
      seen.push(i);
      running--;
    });
    expect(peak).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(23).keys()]);
  });

  it('does nothing for no items', async () => {
    const work = jest.fn();
    await forEachBounded([], 4, work);
    expect(work).not.toHaveBeenCalled();
  });
});
