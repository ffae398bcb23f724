/**
 * Coalesces many small store calls made at about the same time into one per group (a shop): the
 * development store serialises commands, so 200 point reads cost ~20× one `$in` read, and 200
 * updates ~3× one unordered bulk write. Calls wait at most `waitMs` (or until `maxSize` of a group
 * are waiting); each gets its own answer (or the batch's error).
 * MongoDB: runs commands in parallel, but one `$in` read or bulk write still saves round trips there.
 */
export class MicroBatch<K, V> {
  private readonly groups = new Map<
    string,
    Array<{ key: K; ok: (v: V | undefined) => void; fail: (e: unknown) => void }>
  >();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly run: (group: string, keys: K[]) => Promise<Map<string, V> | void>,
    private readonly keyOf: (key: K) => string,
    private readonly waitMs = 2,
    private readonly maxSize = 200,
  ) {}

  load(group: string, key: K): Promise<V | undefined> {
    return new Promise((ok, fail) => {
      const waiting = this.groups.get(group) ?? [];
      waiting.push({ key, ok, fail });
      this.groups.set(group, waiting);
      if (waiting.length >= this.maxSize) this.flush(group);
      else this.timer ??= setTimeout(() => this.flushAll(), this.waitMs);
    });
  }

  private flushAll(): void {
    this.timer = null;
    for (const group of [...this.groups.keys()]) this.flush(group);
  }

  private flush(group: string): void {
    const waiting = this.groups.get(group);
    if (!waiting) return;
    this.groups.delete(group);
    this.run(
      group,
      waiting.map((w) => w.key),
    ).then(
      (found) => waiting.forEach((w) => w.ok(found ? found.get(this.keyOf(w.key)) : undefined)),
      (err) => waiting.forEach((w) => w.fail(err)),
    );
  }
}
