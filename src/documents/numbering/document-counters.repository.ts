import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../common/errors/duplicate-key';
import type { ShopScope } from '../../common/tenancy';
import { TenantRepository } from '../../database/tenant-repository';
import { DocumentCounter, SeriesKey } from './document-counter.schema';

/** A counter as a claim saw it: whose slot it is (`holder`, null: free) and the number it stands at. */
export interface CounterState {
  holder: Types.ObjectId | null;
  next: number;
}

/**
 * The only repository of `document_counters`: each write is one conditional single-document update
 * on the series' unique key (shop, series, year), so two writers never both succeed at a step.
 */
@Injectable()
export class DocumentCountersRepository
  extends TenantRepository<DocumentCounter>
  implements OnApplicationBootstrap
{
  constructor(@InjectModel(DocumentCounter.name) model: Model<DocumentCounter>) {
    super(model);
  }

  /**
   * The unique index is what makes two writers' steps exclusive: the process does not start before
   * it exists (mongoose builds indexes in the background otherwise, and on a fresh database the
   * first documents of a series could otherwise create two counters or register a number twice).
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.model.init();
  }

  /**
   * Step 1: the slot for `documentId` when it is free (or already its own: a resumed call); a new
   * series is created held, at 1. Otherwise the counter as it stands (held by another document, or
   * freed between the attempt and the read: the caller tries again).
   */
  async claim(scope: ShopScope, key: SeriesKey, documentId: Types.ObjectId): Promise<CounterState> {
    try {
      const claimed = await this.model
        .findOneAndUpdate(
          this.scoped(scope, { ...key, holder: { $in: [null, documentId] } }),
          { $set: { holder: documentId }, $setOnInsert: { next: 1 } },
          { upsert: true, new: true, projection: { holder: 1, next: 1 } },
        )
        .lean<CounterState>()
        .exec();
      if (claimed) return claimed;
      // SecantusDB may answer a concurrent upsert's loser with no document and no error.
      // MongoDB: answers the loser E11000 (held by another document), handled below.
    } catch (err) {
      // The series exists and another document holds it: the upsert tried to insert a second one.
      if (!isDuplicateKeyError(err)) throw err;
    }
    return (await this.find(scope, key)) ?? { holder: null, next: 1 };
  }

  find(scope: ShopScope, key: SeriesKey): Promise<CounterState | null> {
    return this.model
      .findOne(this.scoped(scope, { ...key }), { holder: 1, next: 1 })
      .lean<CounterState>()
      .exec();
  }

  /** Step 3: `holder` took `next`: the series moves on and the slot is free, in one write. */
  async advance(
    scope: ShopScope,
    key: SeriesKey,
    at: CounterState & { holder: Types.ObjectId },
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { ...key, holder: at.holder, next: at.next }), {
        $set: { holder: null, next: at.next + 1 },
      })
      .exec();
    return res.matchedCount === 1;
  }

  /** The holder's document needs no number from this slot (numbered already): free it, number unused. */
  async release(
    scope: ShopScope,
    key: SeriesKey,
    at: CounterState & { holder: Types.ObjectId },
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { ...key, holder: at.holder, next: at.next }), {
        $set: { holder: null },
      })
      .exec();
    return res.matchedCount === 1;
  }
}
