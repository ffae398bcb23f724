import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { NaiveDocumentCounter } from './naive-document-counter.schema';

/** REPLACED BY numbering/ AT MERGE: one counter per (shop, series, year), advanced with `$inc`. */
@Injectable()
export class NaiveDocumentCounters extends TenantRepository<NaiveDocumentCounter> {
  constructor(@InjectModel(NaiveDocumentCounter.name) model: Model<NaiveDocumentCounter>) {
    super(model);
  }

  async next(scope: ShopScope, series: string, year: number): Promise<number> {
    const doc = await this.model
      .findOneAndUpdate(
        this.scoped(scope, { series, year }),
        { $inc: { seq: 1 } },
        { upsert: true, new: true },
      )
      .lean<NaiveDocumentCounter>()
      .exec();
    return doc!.seq;
  }
}
