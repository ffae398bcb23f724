import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

export const NOTE_AUTHOR_KINDS = ['shop', 'vendor_user', 'vendor_api_key'] as const;
export type NoteAuthorKind = (typeof NOTE_AUTHOR_KINDS)[number];

/** Who wrote a note: the shop (its token), a vendor's portal user, or a program with a vendor API key. */
@Schema({ _id: false })
export class NoteAuthor {
  @Prop({ type: String, enum: NOTE_AUTHOR_KINDS, required: true }) kind!: NoteAuthorKind;
  /** The shop's id, the portal user's id, or the vendor API key's id. */
  @Prop({ type: String, required: true }) id!: string;
}
export const NoteAuthorSchema = SchemaFactory.createForClass(NoteAuthor);

/**
 * A note on an order's timeline (POST /orders/{id}/timeline). `vendorId` names the vendor part it
 * belongs to: a vendor's notes are on its own part (seen by that vendor and the shop, never by
 * another vendor); a shop note is on one vendor's part when the shop names the vendor, else on the
 * order as a whole, seen by the shop only. Notes are never edited.
 */
@Schema({ collection: 'order_notes', timestamps: { createdAt: true, updatedAt: false } })
export class OrderNote {
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  /** The store platform's order id. */
  @Prop({ type: Number, required: true }) orderId!: number;
  @Prop({ type: Types.ObjectId, default: null }) vendorId!: Types.ObjectId | null;
  @Prop({ type: NoteAuthorSchema, required: true }) author!: NoteAuthor;
  @Prop({ type: String, required: true }) message!: string;
  createdAt!: Date;
}
export const OrderNoteSchema = SchemaFactory.createForClass(OrderNote);
// An order's notes: the shop's read is (shopId, orderId), a vendor's adds its vendorId.
OrderNoteSchema.index({ shopId: 1, orderId: 1, vendorId: 1, createdAt: 1, _id: 1 });
