import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../../common/tenancy';
import { TenantRepository } from '../../database/tenant-repository';
import { DocumentNumberRecord } from './document-number.schema';
import type { SeriesKey } from './document-counter.schema';

/** A number of a series and the document it was given to. */
export interface GivenNumber {
  documentId: Types.ObjectId;
  seq: number;
  number: string;
}

/** The only repository of `document_numbers`, the register of numbers given. */
@Injectable()
export class DocumentNumbersRepository
  extends TenantRepository<DocumentNumberRecord>
  implements OnApplicationBootstrap
{
  constructor(@InjectModel(DocumentNumberRecord.name) model: Model<DocumentNumberRecord>) {
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
   * Step 2a: registers `seq` of the series for `given.documentId`, unless it is registered already
   * (a resumed step): either way the row as stored, whose document and text the caller must use.
   */
  async register(scope: ShopScope, key: SeriesKey, given: GivenNumber): Promise<GivenNumber> {
    if ((await this.insertRows(scope, [{ ...key, ...given }])) === 1) return given;
    const stored = await this.model
      .findOne(this.scoped(scope, { ...key, seq: given.seq }), { documentId: 1, seq: 1, number: 1 })
      .lean<GivenNumber>()
      .exec();
    if (!stored) throw new Error(`number ${given.seq} of ${key.series} ${key.year} was not registered`);
    return stored;
  }

  /** The series' register in number order (the gap check of tests and operators). */
  list(scope: ShopScope, key: SeriesKey): Promise<GivenNumber[]> {
    return this.model
      .find(this.scoped(scope, { ...key }), { documentId: 1, seq: 1, number: 1 })
      .sort({ seq: 1 })
      .lean<GivenNumber[]>()
      .exec();
  }
}
