/** Where an attempt goes: its endpoint and the endpoint's shop. */
export interface GateTarget {
  shopId: string;
  endpointId: string;
}

type Task = () => Promise<void>;

/**
 * Bounded concurrency of delivery attempts inside one process, per endpoint and per shop: at most
 * `limit` attempts to one endpoint and `shopLimit` to all of one shop's endpoints at once; further
 * deliveries wait in their endpoint's bounded in-memory line instead of holding a queue slot, so a
 * receiver that hangs for 15 s delays only its own deliveries, and one shop's endpoints (16 × 16)
 * can never take every slot of the process. The slot is taken BEFORE the attempt does anything
 * (claim, reads, DNS, connect): a waiting delivery costs no query and no resolution (issue 28).
 * Memory only: a delivery waiting here is still `pending` in MongoDB, and a crash leaves it to the
 * sweeper. Duplicates (the sweeper re-driving a waiting delivery) are dropped by id.
 */
export class EndpointGate {
  private readonly running = new Map<string, number>();
  private readonly shopRunning = new Map<string, number>();
  private readonly waiting = new Map<string, Map<string, Task>>();
  /** Per shop, its endpoints with a line, in the order they get the next free shop slot. */
  private readonly shopLines = new Map<string, Set<string>>();

  constructor(
    private readonly limit: number,
    private readonly shopLimit = Number.POSITIVE_INFINITY,
    private readonly maxWaiting = 10_000,
  ) {}

  /**
   * Runs `task` now if the endpoint and its shop have a free slot (the promise of its run), else
   * puts it in the endpoint's line (`queued`), or drops it (`dropped`: already waiting, or the line
   * is full).
   */
  submit(target: GateTarget, key: string, task: Task): Promise<void> | 'queued' | 'dropped' {
    const { shopId, endpointId } = target;
    const line = this.waiting.get(endpointId);
    if (!line?.size && this.hasRoom(shopId, endpointId)) return this.start(shopId, endpointId, task);
    const next = line ?? new Map<string, Task>();
    if (next.has(key) || next.size >= this.maxWaiting) return 'dropped';
    next.set(key, task);
    this.waiting.set(endpointId, next);
    const lines = this.shopLines.get(shopId) ?? new Set<string>();
    lines.add(endpointId);
    this.shopLines.set(shopId, lines);
    return 'queued';
  }

  inFlight(endpointId: string): number {
    return this.running.get(endpointId) ?? 0;
  }

  inFlightForShop(shopId: string): number {
    return this.shopRunning.get(shopId) ?? 0;
  }

  waitingFor(endpointId: string): number {
    return this.waiting.get(endpointId)?.size ?? 0;
  }

  private hasRoom(shopId: string, endpointId: string): boolean {
    return this.inFlight(endpointId) < this.limit && this.inFlightForShop(shopId) < this.shopLimit;
  }

  private start(shopId: string, endpointId: string, task: Task): Promise<void> {
    add(this.running, endpointId, 1);
    add(this.shopRunning, shopId, 1);
    return task()
      .catch(() => undefined)
      .finally(() => {
        add(this.running, endpointId, -1);
        add(this.shopRunning, shopId, -1);
        this.next(shopId);
      });
  }

  /** Starts waiting attempts of the shop while it has room, one endpoint after another (round robin). */
  private next(shopId: string): void {
    const lines = this.shopLines.get(shopId);
    while (lines?.size && this.inFlightForShop(shopId) < this.shopLimit) {
      const endpointId = [...lines].find((id) => this.inFlight(id) < this.limit);
      if (endpointId === undefined) return;
      const line = this.waiting.get(endpointId)!;
      const [key, task] = line.entries().next().value as [string, Task];
      line.delete(key);
      lines.delete(endpointId);
      if (line.size === 0) this.waiting.delete(endpointId);
      else lines.add(endpointId); // to the back: the shop's other endpoints go first
      if (lines.size === 0) this.shopLines.delete(shopId);
      void this.start(shopId, endpointId, task);
    }
  }
}

function add(counts: Map<string, number>, key: string, delta: number): void {
  const n = (counts.get(key) ?? 0) + delta;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
