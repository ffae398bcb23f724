/**
 * Runs `work` over `items` with at most `limit` running at once, in order of `items`; resolves when
 * all have settled (a rejection of one is the caller's to catch inside `work`).
 */
export async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
