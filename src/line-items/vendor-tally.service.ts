import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Types } from 'mongoose';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import { type ShopScope, toObjectId } from '../common/tenancy';
import { LineItemTallyRepository } from './line-item-tally.repository';
import { tallyStep } from './vendor-tally';

/** Changed rows counted per step (the pending write-back is kept in one balance document). */
const STEP_ROWS = 1000;
/** Steps per vendor per call: a backlog larger than this is finished by the sweeper. */
const MAX_STEPS = 200;
/** Vendor runs per call (a row moving between vendors needs both). */
const MAX_RUNS = 20;
const LEASE_MS = 30_000;
/**
 * How long the webhook path waits before counting (settleSoon): a burst of orders for a vendor is
 * counted by one run instead of one each (the balance of that vendor lags by about this much when
 * read from another process; a read in this process starts the run at once). A run is ~6 commands
 * whatever its rows: at 200 ms a 2,000-order seed made ~12 runs a second (docs/performance.md);
 * at 1 s a burst of orders shares one run per vendor.
 */
const SOON_MS = 1_000;

/**
 * Keeps each vendor's `due` and `pending` sums (vendor_balances) equal to its unfrozen rows at write
 * time (DESIGN §8), so the balance read is one document at any history size. Every line-item write
 * that may change a row's contribution marks the row (`tallyDirt`, in the same write); the writer
 * then calls `settle` for the vendors it touched. A run holds the vendor's lease, reads the marked
 * rows, adds what each contributes now minus what it contributed (`tallyStep`) to the sums while
 * keeping those rows as a pending write-back — one single-document write — and then writes each
 * row's contribution back and clears its mark (unless it changed again). A run that dies leaves the
 * lease to lapse and the pending write-back for the next run, which finishes it first: a change is
 * counted once. A caller that finds the lease taken leaves an ask, and the holder looks again
 * before it lets go. The sweeper settles whatever a crash left marked.
 */
interface RunOutcome {
  others: string[];
  skipped: boolean;
  done: boolean;
}

/** A run due to start (settleSoon): `fire` starts it at once (a balance read, draining). */
interface Soon {
  done: Promise<void>;
  fire(): void;
}

/** A vendor's run in this process, and the one queued behind it (shared by every later caller). */
interface Slot {
  running: Promise<RunOutcome> | null;
  waiting: Promise<RunOutcome> | null;
}

@Injectable()
export class VendorTally implements OnApplicationShutdown {
  private readonly logger = new Logger('VendorTally');
  private readonly slots = new Map<string, Slot>();
  /** Background runs due to start (settleSoon), by shop and vendor. */
  private readonly soon = new Map<string, Soon>();

  constructor(
    private readonly lineItems: LineItemTallyRepository,
    private readonly balances: VendorBalancesRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts the changed rows of these vendors (ids as stored or as strings; nulls ignored). Whether
   * this call counted everything itself: false when another run held a vendor's lease (that run
   * counts what this call's writer changed: it was asked) or a backlog was left for the sweeper.
   */
  async settle(scope: ShopScope, vendorIds: Iterable<unknown>): Promise<boolean> {
    const queue = [...new Set([...vendorIds].filter((v) => v != null).map(String))];
    return OperationContexts.phase('tally', async () => {
      let complete = true;
      for (let runs = 0; queue.length > 0 && runs < MAX_RUNS; runs++) {
        const vendor = queue.shift()!;
        const id = toObjectId(vendor);
        if (!id) continue;
        const { others, skipped, done } = await this.coalesced(scope, id);
        complete &&= done;
        for (const o of others) if (!queue.includes(o)) queue.push(o);
        // Rows still counted at another vendor: once that vendor let go of them, count them here.
        if (skipped && !queue.includes(vendor)) queue.push(vendor);
      }
      return complete && queue.length === 0;
    });
  }

  /**
   * `settle` without waiting for it: the webhook path (ingestion, refunds), whose jobs must not
   * queue behind the counting — a burst's rows are counted by the vendor's next run together. A run
   * that fails is logged; its rows stay marked for the next run or the sweeper. Reads of the balance
   * in this process wait for it (`idle`).
   */
  settleSoon(scope: ShopScope, vendorIds: Iterable<unknown>): void {
    for (const vendor of new Set([...vendorIds].filter((v) => v != null).map(String))) {
      const key = slotKey(scope, vendor);
      if (this.soon.has(key)) continue; // a run is already due to start: it will see these rows
      let fire!: () => void;
      const started = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SOON_MS);
        fire = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const done = started
        .then(() => {
          this.soon.delete(key);
          return this.settle(scope, [vendor]);
        })
        .then(
          () => undefined,
          (err: unknown) =>
            this.logger.warn(
              { shopId: scope.shopId, err: (err as Error)?.message },
              'Tally run failed: left to the next',
            ),
        );
      this.soon.set(key, { done, fire });
    }
  }

  /**
   * Waits (at most `timeoutMs`) for this process's runs of the vendor, going or queued: a balance
   * read after a write in this process sees it counted.
   */
  async idle(scope: ShopScope, vendorId: unknown, timeoutMs = 2_000): Promise<void> {
    await this.idleKey(slotKey(scope, vendorId), timeoutMs);
  }

  /** `idle` for every vendor of the shop this process has a run of, going, queued or due (reports). */
  async idleShop(scope: ShopScope, timeoutMs = 2_000): Promise<void> {
    const prefix = `${scope.shopId}:`;
    const keys = new Set([...this.soon.keys(), ...this.slots.keys()].filter((k) => k.startsWith(prefix)));
    await Promise.all([...keys].map((k) => this.idleKey(k, timeoutMs)));
  }

  private async idleKey(key: string, timeoutMs: number): Promise<void> {
    const soon = this.soon.get(key);
    soon?.fire(); // a run due to start begins now (it never throws)
    await soon?.done;
    const slot = this.slots.get(key);
    const last = slot?.waiting ?? slot?.running;
    if (!last) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([last.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Waits (at most `timeoutMs`) until this process has no run going or queued (shutdown, tests). */
  async drained(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.slots.size + this.soon.size > 0 && Date.now() < deadline) {
      for (const s of this.soon.values()) s.fire();
      const runs = [
        ...[...this.soon.values()].map((s) => s.done),
        ...[...this.slots.values()].map((s) => (s.waiting ?? s.running)!.catch(() => undefined)),
      ];
      await Promise.race([Promise.all(runs), new Promise((r) => setTimeout(r, 100))]);
    }
  }

  /** Lets the runs in flight finish (bounded) before the process stops; what is left, the sweeper counts. */
  async onApplicationShutdown(): Promise<void> {
    await this.drained();
  }

  /**
   * Counts until nothing of these vendors is left uncounted, waiting for another run that holds a
   * lease (the reconcile command: it proves the sums only once every change is in them).
   */
  async settleFully(scope: ShopScope, vendorIds: unknown[], timeoutMs = 120_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!(await this.settle(scope, vendorIds))) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
    return true;
  }

  /**
   * The vendor's run, shared within this process: callers that come while a run is going wait for
   * the one queued behind it (which starts after their writes, so it counts them) and share it —
   * a burst of ingestion jobs for one vendor costs two runs, not one each, and never contends for
   * the lease with itself. Across processes the lease and its asks do the same.
   */
  private coalesced(scope: ShopScope, vendorId: Types.ObjectId): Promise<RunOutcome> {
    const key = slotKey(scope, vendorId);
    const slot = this.slots.get(key) ?? { running: null, waiting: null };
    if (slot.waiting) return slot.waiting;
    this.slots.set(key, slot);
    const prior = slot.running;
    const mine: Promise<RunOutcome> = (prior ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        if (slot.waiting === mine) slot.waiting = null;
        slot.running = mine;
        return this.run(scope, vendorId);
      })
      .finally(() => {
        if (slot.running === mine && !slot.waiting) this.slots.delete(key);
      });
    if (prior) slot.waiting = mine;
    else slot.running = mine;
    return mine;
  }

  private async run(scope: ShopScope, vendorId: Types.ObjectId): Promise<RunOutcome> {
    const token = randomUUID();
    const others = new Set<string>();
    let skipped = false;
    let held = await this.lease(scope, vendorId, token);
    if (!held) {
      // Busy: ask the holder to look again (only while it holds a live lease); when nobody holds
      // it any more, try once more.
      if (await this.balances.askTally(scope, vendorId, this.clock.now()))
        return { others: [], skipped: false, done: false };
      held = await this.lease(scope, vendorId, token);
      if (!held) return { others: [], skipped: false, done: false };
    }
    for (let step = 0; step < MAX_STEPS; step++) {
      if (held.tallyPending?.length) {
        // A run died after counting: its rows get what it counted (marks kept: the step below
        // counts whatever changed since), then the list is forgotten.
        await this.lineItems.restoreTallies(scope, held.tallyPending);
        await this.balances.dropTallyPending(scope, vendorId, token);
      }
      const asks = held.tallyAsks ?? 0;
      const rows = await this.lineItems.changedForTally(scope, vendorId, STEP_ROWS);
      const counted = tallyStep(String(vendorId), rows);
      counted.others.forEach((o) => others.add(o));
      skipped ||= counted.rows.length < rows.length;
      if (counted.rows.length > 0) {
        if (!(await this.balances.countTally(scope, vendorId, token, counted))) {
          this.logger.warn({ vendorId: String(vendorId) }, 'Tally lease lost: the next run counts the rest');
          return { others: [...others], skipped, done: false };
        }
        await this.lineItems.writeTallies(scope, counted.rows);
      }
      const more = rows.length >= STEP_ROWS && counted.rows.length > 0;
      if (!more && (await this.balances.finishTally(scope, vendorId, token, asks))) {
        return { others: [...others], skipped, done: true };
      }
      // More rows, or somebody asked meanwhile: renew the lease and look again.
      const renewed = await this.lease(scope, vendorId, token);
      if (!renewed) return { others: [...others], skipped, done: false };
      held = renewed;
    }
    this.logger.warn({ vendorId: String(vendorId) }, 'Tally backlog left for the sweeper');
    return { others: [...others], skipped, done: false };
  }

  private lease(scope: ShopScope, vendorId: Types.ObjectId, token: string) {
    const now = this.clock.now();
    return this.balances.leaseTally(scope, vendorId, token, now, new Date(now.getTime() + LEASE_MS));
  }
}

/** A vendor's key among this process's runs (its shop and id). */
function slotKey(scope: ShopScope, vendorId: unknown): string {
  return `${scope.shopId}:${String(vendorId)}`;
}
