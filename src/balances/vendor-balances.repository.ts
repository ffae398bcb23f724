import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { toCents } from '../common/money';
import { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { anyOf } from '../database/query-filters';
import { chunkedBulkWrite } from '../database/bulk-write';
import { LastBatch, TallyPendingRow, VendorBalance } from './vendor-balance.schema';

/**
 * The only repository of `vendor_balances`: the engine's vendor lock and its exactly-once batch
 * step, and the tally's lease and its counted differences (line-items/vendor-tally.service.ts).
 */
@Injectable()
export class VendorBalancesRepository extends TenantRepository<VendorBalance> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(VendorBalance.name) model: Model<VendorBalance>) {
    super(model);
  }

  find(scope: ShopScope, vendorId: Types.ObjectId): Promise<VendorBalance | null> {
    return this.model.findOne(this.scoped(scope, { vendorId })).lean<VendorBalance>().exec();
  }

  /** Σ dueCents and Σ pendingCents over the shop's vendors (the shop dashboard; integer cents). */
  async shopCents(scope: ShopScope): Promise<{ dueCents: number; pendingCents: number }> {
    const [g] = await this.model
      .aggregate<{ dueCents: number; pendingCents: number }>([
        { $match: this.scoped(scope) },
        {
          $group: {
            _id: '$shopId',
            dueCents: { $sum: '$dueCents' },
            pendingCents: { $sum: '$pendingCents' },
          },
        },
      ])
      .exec();
    return { dueCents: g?.dueCents ?? 0, pendingCents: g?.pendingCents ?? 0 };
  }

  /**
   * Takes the vendor's lock for a batch (free, lapsed, or already this batch's); null when another
   * batch of the vendor is running. Creates the vendor's balance document on first use.
   */
  async lock(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batchId: Types.ObjectId,
    now: Date,
    until: Date,
  ): Promise<VendorBalance | null> {
    try {
      await this.model
        .updateOne(
          this.scoped(scope, { vendorId }),
          { $setOnInsert: { ...this.owner(scope), vendorId } },
          {
            upsert: true,
          },
        )
        .exec();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err; // a concurrent first use created it
    }
    return this.model
      .findOneAndUpdate(
        this.scoped(scope, {
          vendorId,
          ...anyOf([{ lockBatchId: null }, { lockUntil: { $lt: now } }, { lockBatchId: batchId }]),
        }),
        { $set: { lockBatchId: batchId, lockUntil: until } },
        { new: true },
      )
      .lean<VendorBalance>()
      .exec();
  }

  /** Extends the lock; false when another batch took it over (this run must stop). */
  async renew(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batchId: Types.ObjectId,
    until: Date,
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { vendorId, lockBatchId: batchId }), { $set: { lockUntil: until } })
      .exec();
    return res.matchedCount === 1;
  }

  async unlock(scope: ShopScope, vendorId: Types.ObjectId, batchId: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { vendorId, lockBatchId: batchId }), {
        $set: { lockBatchId: null, lockUntil: null },
      })
      .exec();
  }

  /**
   * A settled batch into the balance, exactly once: it matches only while this batch is not the
   * last applied one (batches of a vendor settle one at a time, under the lock), so a resumed run
   * that crashed after this step finds nothing to do. Whether this call applied it.
   */
  async applyBatch(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    batch: LastBatch & { carriedForward: number },
  ): Promise<boolean> {
    const { carriedForward, ...last } = batch;
    const res = await this.model
      .updateOne(
        this.scoped(scope, { vendorId, lockBatchId: batch.batchId, lastBatchId: { $ne: batch.batchId } }),
        {
          $inc: { paidToDateCents: toCents(batch.total), batchesApplied: 1 },
          $set: { carriedForward, lastBatchId: batch.batchId, lastBatch: last },
        },
      )
      .exec();
    return res.modifiedCount === 1;
  }

  /**
   * Records crossing `n` below zero (after its event is recorded, so a crash before this re-emits the
   * same event id). Matches only while the vendor is not marked negative; a vendor no batch has
   * settled yet gets its balance document here (a concurrent insert is the same crossing: ignored).
   */
  async markNegative(scope: ShopScope, vendorId: Types.ObjectId, n: number): Promise<void> {
    try {
      await this.model
        .updateOne(
          this.scoped(scope, { vendorId, negative: { $ne: true } }),
          { $set: { negative: true, negativeCrossings: n } },
          { upsert: true },
        )
        .exec();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** `due` is back at zero or above: the next drop below zero is a new crossing. */
  async clearNegative(scope: ShopScope, vendorId: Types.ObjectId): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { vendorId, negative: true }), { $set: { negative: false } })
      .exec();
  }

  // ---- the tally ---------------------------------------------------------------------------

  /**
   * Takes the vendor's tally lease (free, lapsed, or already `token`'s) in one command, creating the
   * balance document on first use; null when another run holds it (the upsert then collides with
   * the existing document's unique key).
   */
  async leaseTally(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    token: string,
    now: Date,
    until: Date,
  ): Promise<VendorBalance | null> {
    try {
      return await this.model
        .findOneAndUpdate(
          this.scoped(scope, {
            vendorId,
            ...anyOf([{ tallyLease: null }, { tallyLeaseUntil: { $lt: now } }, { tallyLease: token }]),
          }),
          { $set: { tallyLease: token, tallyLeaseUntil: until } },
          { new: true, upsert: true },
        )
        .lean<VendorBalance>()
        .exec();
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  /**
   * Tells the lease holder that rows changed after it looked (it looks again before letting go).
   * False when no live lease is held any more (the caller takes the lease itself).
   */
  async askTally(scope: ShopScope, vendorId: Types.ObjectId, now: Date): Promise<boolean> {
    const res = await this.model
      .updateOne(
        this.scoped(scope, { vendorId, tallyLease: { $ne: null }, tallyLeaseUntil: { $gte: now } }),
        {
          $inc: { tallyAsks: 1 },
        },
      )
      .exec();
    return res.matchedCount === 1;
  }

  /**
   * Counts a step: adds its differences to the sums and keeps its rows as the pending write-back,
   * in one single-document write (so the rows are written back exactly as counted, whoever finishes).
   * False when the lease was lost or a pending write-back is still unfinished.
   */
  async countTally(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    token: string,
    step: { dueCents: number; pendingCents: number; rows: TallyPendingRow[]; quarters?: string[] },
  ): Promise<boolean> {
    const quarters = step.quarters ?? [];
    const res = await this.model
      .updateOne(this.scoped(scope, { vendorId, tallyLease: token, tallyPending: null }), {
        $inc: {
          dueCents: step.dueCents,
          pendingCents: step.pendingCents,
          ...Object.fromEntries(quarters.map((q) => [`taxDirt.${q}`, 1])),
        },
        $set: { tallyPending: step.rows, ...(quarters.length > 0 ? { taxDirty: true } : {}) },
      })
      .exec();
    return res.matchedCount === 1;
  }

  /**
   * Marks one quarter of these vendors for a refresh, as a tally step would (the backfill of
   * `reports:seller-tax-rebuild`): a vendor whose rows were counted has its balance document.
   */
  async markTaxQuarter(scope: ShopScope, vendorIds: Types.ObjectId[], quarter: string): Promise<void> {
    if (vendorIds.length === 0) return;
    await this.model
      .updateMany(this.scoped(scope, { vendorId: { $in: vendorIds } }), {
        $inc: { [`taxDirt.${quarter}`]: 1 },
        $set: { taxDirty: true },
      })
      .exec();
  }

  /** The shop's vendors with seller tax summaries to refresh, and each one's marks (quarter → count). */
  async taxDirt(
    scope: ShopScope,
  ): Promise<Array<{ vendorId: Types.ObjectId; taxDirt: Record<string, number> }>> {
    const docs = await this.model
      .find(this.scoped(scope, { taxDirty: true }), { vendorId: 1, taxDirt: 1 })
      .sort({ vendorId: 1 })
      .lean<Array<{ vendorId: Types.ObjectId; taxDirt?: Record<string, number> }>>()
      .exec();
    return docs.map((d) => ({ vendorId: d.vendorId, taxDirt: d.taxDirt ?? {} }));
  }

  /**
   * Removes the marks a refresh recomputed, one statement per vendor: only if every one of them still
   * has the count read before the recompute (a step that counted a row since keeps them all marked,
   * and they are recomputed again), and `taxDirty` then says whether any mark is left (another year's).
   */
  async clearTaxDirt(
    scope: ShopScope,
    done: Array<{ vendorId: Types.ObjectId; counts: Record<string, number> }>,
  ): Promise<void> {
    const ops = done
      .filter((d) => Object.keys(d.counts).length > 0)
      .map((d) => ({
        updateOne: {
          filter: this.scoped(scope, {
            vendorId: d.vendorId,
            ...Object.fromEntries(Object.entries(d.counts).map(([q, n]) => [`taxDirt.${q}`, n])),
          }),
          update: [
            { $unset: Object.keys(d.counts).map((q) => `taxDirt.${q}`) },
            {
              $set: { taxDirty: { $gt: [{ $size: { $objectToArray: { $ifNull: ['$taxDirt', {}] } } }, 0] } },
            },
          ],
        },
      }));
    if (ops.length > 0)
      await chunkedBulkWrite(this.model, ops as Parameters<Model<VendorBalance>['bulkWrite']>[0]);
  }

  /**
   * The write-back is done: forgets the pending rows and, when nobody asked since `asks` was read,
   * lets go of the lease in the same write. Whether the lease was let go.
   */
  async finishTally(
    scope: ShopScope,
    vendorId: Types.ObjectId,
    token: string,
    asks: number,
  ): Promise<boolean> {
    const released = await this.model
      // (a document older than the tally has no `tallyAsks`: read as 0)
      .updateOne(this.scoped(scope, { vendorId, tallyLease: token, tallyAsks: asks || { $in: [0, null] } }), {
        $unset: { tallyPending: '' },
        $set: { tallyLease: null, tallyLeaseUntil: null },
      })
      .exec();
    if (released.matchedCount === 1) return true;
    await this.dropTallyPending(scope, vendorId, token);
    return false;
  }

  /** Forgets the pending write-back (written back by now), keeping the lease. */
  async dropTallyPending(scope: ShopScope, vendorId: Types.ObjectId, token: string): Promise<void> {
    await this.model
      .updateOne(this.scoped(scope, { vendorId, tallyLease: token }), { $unset: { tallyPending: '' } })
      .exec();
  }
}
