import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import type { NumberedDocumentType } from '../document.types';

/**
 * The numbering's narrow view of the `documents` collection: only the fields it reads and writes.
 * The documents feature owns the collection, its full schema and its indexes; this model declares
 * none (a document is read and written here by `_id` only).
 */
@Schema({ collection: 'documents', versionKey: false, autoIndex: false, strict: true })
export class NumberedDocument {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  /** Unset (or null) until the document is numbered; then never changed. */
  @Prop({ type: String }) number?: string | null;
  @Prop({ type: String }) series?: NumberedDocumentType;
  @Prop({ type: Number }) year?: number;
  @Prop({ type: Number }) seq?: number;
}

export const NumberedDocumentSchema = SchemaFactory.createForClass(NumberedDocument);
