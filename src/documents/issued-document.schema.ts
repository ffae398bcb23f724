import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';
import { DOCUMENT_TYPES, type DocumentSnapshot, type DocumentType } from './document.types';

/**
 * pending: written with its snapshot, not numbered yet (a crash here leaves it for the batch's
 * document sweep, which numbers and issues the same document); issued: numbered (numbered kinds),
 * final. Documents are never edited after `issued` (DESIGN §14).
 */
export const DOCUMENT_STATES = ['pending', 'issued'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/**
 * One issued document (DESIGN §14): a frozen snapshot of every party detail and figure. Unique per
 * (shop, batch, vendor, type, order): a batch gets each kind exactly once, and a per-order document
 * (packing slip: no batch) once per order and vendor. No partial index (DESIGN §1), so the key
 * carries `orderId` (null on batch documents) instead of being limited to documents with a batch.
 */
@Schema({ collection: 'documents', timestamps: true })
export class IssuedDocument {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) vendorId!: Types.ObjectId;
  @Prop({ type: String, enum: DOCUMENT_TYPES, required: true }) type!: DocumentType;

  /** `{prefix}{year}-{seq:06}`; null until numbered, and always on unnumbered kinds. */
  @Prop({ type: String, default: null }) number!: string | null;
  /** The numbering series (the type, for numbered kinds); null for unnumbered kinds. */
  @Prop({ type: String, default: null }) series!: string | null;
  /** The year of issue (UTC): the series restarts each year. */
  @Prop({ type: Number, required: true }) year!: number;
  /** The position in the series; null until numbered. */
  @Prop({ type: Number, default: null }) seq!: number | null;

  @Prop({ type: Types.ObjectId, default: null }) batchId!: Types.ObjectId | null;
  /** A per-order document's order (the platform's order id); null on batch documents. */
  @Prop({ type: String, default: null }) orderId!: string | null;
  /** Every order the document's lines name (the `orderId` filter, the invoice of an order). */
  @Prop({ type: [String], default: [] }) orderIds!: string[];

  @Prop({ type: Date, required: true }) issuedAt!: Date;
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) snapshot!: DocumentSnapshot;
  @Prop({ type: String, enum: DOCUMENT_STATES, default: 'pending' }) state!: DocumentState;

  /**
   * Pending-event marker (DESIGN §11): set in the write that issues the document, cleared once its
   * `document.issued` event is recorded; a crash in between leaves it for the events sweeper.
   */
  @Prop({ type: Date, default: undefined }) eventPendingAt?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export const IssuedDocumentSchema = SchemaFactory.createForClass(IssuedDocument);
// Exactly once per batch and kind (and per order and vendor for per-order kinds); also every
// document of a batch (GET /v1/documents?batchId=, a shop's or its vendor's).
IssuedDocumentSchema.index({ shopId: 1, batchId: 1, vendorId: 1, type: 1, orderId: 1 }, { unique: true });
// The lists newest first: the shop's (type sent as `$in` over every kind when not filtered) and a
// vendor's (vendor tokens, the vendorId filter); `start`/`end` are a range on issuedAt.
IssuedDocumentSchema.index({ shopId: 1, type: 1, issuedAt: -1, _id: -1 });
IssuedDocumentSchema.index({ shopId: 1, vendorId: 1, type: 1, issuedAt: -1, _id: -1 });
// The documents naming an order (the orderId filter, the invoice of an order, a credit note's
// corrected invoices): few per order, read whole, in (vendor, _id) order.
IssuedDocumentSchema.index({ shopId: 1, orderIds: 1, vendorId: 1, _id: 1 });
// The events sweeper's cross-shop scan for issued documents whose event a crash left unrecorded.
IssuedDocumentSchema.index({ eventPendingAt: 1 });
