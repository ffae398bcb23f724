import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../../common/tenancy';
import { TenantRepository } from '../../database/tenant-repository';
import type { SeriesKey } from './document-counter.schema';
import { NumberedDocument } from './numbered-document.schema';

/** A document's number as stored: all null until it is numbered. */
export interface DocumentNumberState {
  number: string | null;
  series: string | null;
  year: number | null;
  seq: number | null;
}

const PROJECTION = { number: 1, series: 1, year: 1, seq: 1 } as const;

/**
 * The numbering's narrow repository of `documents` (owned by the documents feature): reads a
 * document's number, and sets it once. Never creates or deletes a document.
 */
@Injectable()
export class NumberedDocumentsRepository extends TenantRepository<NumberedDocument> {
  constructor(@InjectModel(NumberedDocument.name) model: Model<NumberedDocument>) {
    super(model);
  }

  /** The scope's document's number; null when the shop has no such document. */
  async numberOf(scope: ShopScope, id: Types.ObjectId): Promise<DocumentNumberState | null> {
    const doc = await this.model
      .findOne(this.scoped(scope, { _id: id }), PROJECTION)
      .lean<Partial<DocumentNumberState>>()
      .exec();
    return doc && stateOf(doc);
  }

  /**
   * Step 2b: the number on the document if it has none yet; the document's number after the write
   * either way (the one it already had, when another step got there first). Null: no such document.
   */
  async setNumberIfUnset(
    scope: ShopScope,
    id: Types.ObjectId,
    key: SeriesKey,
    given: { seq: number; number: string },
  ): Promise<DocumentNumberState | null> {
    const set = { number: given.number, series: key.series, year: key.year, seq: given.seq };
    const updated = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { _id: id, number: null }),
        { $set: set },
        { new: true, projection: PROJECTION },
      )
      .lean<Partial<DocumentNumberState>>()
      .exec();
    return updated ? stateOf(updated) : this.numberOf(scope, id);
  }
}

function stateOf(doc: Partial<DocumentNumberState>): DocumentNumberState {
  return {
    number: doc.number ?? null,
    series: doc.series ?? null,
    year: doc.year ?? null,
    seq: doc.seq ?? null,
  };
}
