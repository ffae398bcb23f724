import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { VendorBalancesRepository } from '../balances/vendor-balances.repository';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import { type ShopScope, toObjectId } from '../common/tenancy';
import { LineItemsRepository } from './line-items.repository';
import { tallyStep } from './vendor-tally';

/** Changed rows counted per step (the pending write-back is kept in one balance document). */
const STEP_ROWS = 1000;
/** Steps per vendor per call: a backlog larger than this is finished by the sweeper. */
const MAX_STEPS = 200;
/** Vendor runs per call (a row moving between vendors needs both). */
const MAX_RUNS = 20;
const LEASE_MS = 30_000;

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

/** A vendor's run in this process, and the one queued behind it (shared by every later caller). */
interface Slot {
  running: Promise<RunOutcome> | null;
  waiting: Promise<RunOutcome> | null;
}

@Injectable()
export class VendorTally {
  private readonly logger = new Logger('VendorTally');
  private readonly slots = new Map<string, Slot>();

  constructor(
    private readonly lineItems: LineItemsRepository,
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
    const key = `${scope.shopId}:${String(vendorId)}`;
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
      // Busy: ask the holder to look again, then try once more (it may have let go meanwhile).
      await this.balances.askTally(scope, vendorId);
      held = await this.lease(scope, vendorId, token);
      if (!held) return { others: [], skipped: false, done: false };
    }
    for (let step = 0; step < MAX_STEPS; step++) {
      if (held.tallyPending?.length) {
        // A run died after counting: write its rows back exactly as counted, then forget them.
        await this.lineItems.writeTallies(scope, held.tallyPending);
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
