import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { ModelOutbox, withOutbox } from '../audit/audit-outbox';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { toObjectId } from '../common/tenancy';
import { Shop, ShopLegal } from './shop.schema';

/** A shop's sealed legal tax id, as the rotation reads it. */
export interface ShopLegalSecret {
  _id: Types.ObjectId;
  legal?: { taxIdEnc?: string | null };
}

/**
 * The legal settings part of the shops collection (DESIGN §14), beside ShopsRepository so the two
 * evolve apart: reads and writes by the verified shop id only, never across shops except for the
 * operator's key rotation.
 */
@Injectable()
export class ShopLegalRepository {
  readonly outbox: ModelOutbox;

  constructor(@InjectModel(Shop.name) private readonly model: Model<Shop>) {
    this.outbox = new ModelOutbox(model, '_id');
  }

  async find(shopId: string): Promise<{ legal: ShopLegal | null } | null> {
    const id = toObjectId(shopId);
    if (!id) return null;
    const shop = await this.model.findOne({ _id: id }, { legal: 1 }).lean<Pick<Shop, 'legal'>>().exec();
    return shop ? { legal: shop.legal ?? null } : null;
  }

  /**
   * Sets the given `legal.*` leaves in one write, only while the leaves in `expect` still hold the
   * values read (the prefixes' distinctness was checked against them). Null: the shop changed meanwhile.
   */
  async set(
    shopId: string,
    set: Record<string, unknown>,
    expect: Record<string, unknown>,
    stamp: AuditStamp | null,
    event: AuditRecord | null,
  ): Promise<{ legal: ShopLegal | null } | null> {
    const id = toObjectId(shopId);
    if (!id) return null;
    const shop = await this.model
      .findOneAndUpdate({ ...expect, _id: id }, withOutbox({ $set: set }, stamp, event), {
        new: true,
        projection: { legal: 1 },
      })
      .lean<Pick<Shop, 'legal'>>()
      .exec();
    return shop ? { legal: shop.legal ?? null } : null;
  }

  /** Rotation: the next shops after `after` in id order with their sealed legal tax id (the _id index). */
  secretsPage(after: Types.ObjectId | null, limit: number): Promise<ShopLegalSecret[]> {
    return this.model
      .find(after ? { _id: { $gt: after } } : {}, { 'legal.taxIdEnc': 1 })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<ShopLegalSecret[]>()
      .exec();
  }

  /** Replaces the sealed tax id only if it is still the one read (compare-and-set). */
  async replaceTaxId(shopId: Types.ObjectId, before: string, after: string): Promise<boolean> {
    const res = await this.model
      .updateOne({ _id: shopId, 'legal.taxIdEnc': before }, { $set: { 'legal.taxIdEnc': after } })
      .exec();
    return res.modifiedCount === 1;
  }
}
