import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { TenantRepository } from '../database/tenant-repository';
import { NoteAuthor, OrderNote } from './order-note.schema';

/** At most this many notes of one order are read into a timeline (newest kept). */
export const MAX_TIMELINE_NOTES = 500;

/** Timeline notes of orders (order-note.schema.ts): a vendor scope reads and writes its own part only. */
@Injectable()
export class OrderNotesRepository extends TenantRepository<OrderNote> {
  protected override readonly vendorField = 'vendorId';

  constructor(@InjectModel(OrderNote.name) model: Model<OrderNote>) {
    super(model);
  }

  /**
   * Stores a note. A vendor scope's note is on its own vendor's part whatever `vendorId` says
   * (owner()); a shop scope's on the vendor part it names, or on the whole order (null).
   */
  async add(
    scope: ShopScope,
    note: { orderId: number; vendorId: string | null; author: NoteAuthor; message: string },
  ): Promise<OrderNote> {
    const doc = {
      _id: new Types.ObjectId(),
      orderId: note.orderId,
      vendorId: note.vendorId ? new Types.ObjectId(note.vendorId) : null,
      author: note.author,
      message: note.message,
    };
    await this.insertRows(scope, [doc]);
    const stored = await this.findOneById<OrderNote>(scope, doc._id);
    if (!stored) throw new Error('order note not stored');
    return stored;
  }

  /**
   * The notes of one order the caller sees, oldest first: every note for a shop scope, the notes on
   * its own part for a vendor scope. Sorted here: the shop's read has no vendor to put before the
   * sort key (an order has few notes).
   * MongoDB: reads the (shopId, orderId[, vendorId]) range of the notes' index.
   */
  async forOrder(scope: ShopScope, orderId: number): Promise<OrderNote[]> {
    const rows = await this.model.find(this.scoped(scope, { orderId })).lean<OrderNote[]>().exec();
    rows.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || String(a._id).localeCompare(String(b._id)),
    );
    return rows.slice(-MAX_TIMELINE_NOTES);
  }

  protected override owner(scope: ShopScope): { shopId: Types.ObjectId; vendorId?: Types.ObjectId } {
    return scope.vendorId
      ? { ...super.owner(scope), vendorId: new Types.ObjectId(scope.vendorId) }
      : super.owner(scope);
  }
}
