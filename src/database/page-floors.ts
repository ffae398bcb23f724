/**
 * Where the last full page of a newest-first list ended, remembered per list and page window
 * (process-local, the oldest forgotten first): the next read of that page asks only the range from
 * that time on. The development store reads a query's whole index range before it applies `limit`
 * (database/store-ranges.ts), so an unbounded first page of a shop's payout rows costs it O(rows):
 * 95-107 ms of store CPU at 6,750 rows, against 4 ms for the same page bounded by its last row's time.
 *
 * The answer never depends on what is remembered: a bounded read that fills the page holds every
 * row of the unbounded one (rows outside the bound are older than each row inside it, so they sort
 * after at least `offset + limit` rows; rows at the bound itself are inside, `$gte`), and a read
 * that does not fill it is answered from the whole range instead, and the floor forgotten.
 * A floor only goes stale towards more work: rows added since make the bounded range longer, and
 * each full page moves the floor up to its own last row.
 * MongoDB: stops its index scan at `offset + limit` rows already; the bounded read is the same answer.
 */
export class PageFloors {
  private readonly floors = new Map<string, Date>();

  constructor(private readonly capacity = 10_000) {}

  get(key: string): Date | undefined {
    return this.floors.get(key);
  }

  forget(key: string): void {
    this.floors.delete(key);
  }

  remember(key: string, at: Date | null | undefined): void {
    if (!(at instanceof Date)) return; // a row without a time sorts last: nothing to bound by
    this.floors.delete(key);
    this.floors.set(key, at);
    if (this.floors.size > this.capacity) this.floors.delete(this.floors.keys().next().value as string);
  }
}
