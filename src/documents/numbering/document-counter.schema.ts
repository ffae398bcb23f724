import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import type { NumberedDocumentType } from '../document.types';

/** Which counter: a shop's series (the document type) in one calendar year of issue (UTC). */
export interface SeriesKey {
  series: NumberedDocumentType;
  year: number;
}

/**
 * The allocator of one series of one shop and year (DESIGN §14): the number the next document
 * takes, and the document holding the slot while it takes it. One writer at a time holds the slot
 * (`holder`); anyone who finds it held can finish the holder's steps, so a process killed while
 * holding it blocks no one and leaves no gap (docs-notes/doc-number.md, one paragraph per step).
 */
@Schema({ collection: 'document_counters', versionKey: false, timestamps: true })
export class DocumentCounter {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) series!: NumberedDocumentType;
  @Prop({ type: Number, required: true }) year!: number;
  /** The sequence number the holder (or the next claimant) takes; 1 on a new series. */
  @Prop({ type: Number, required: true, default: 1 }) next!: number;
  /** The document taking `next` right now; null when the slot is free. */
  @Prop({ type: Types.ObjectId, default: null }) holder!: Types.ObjectId | null;

  createdAt!: Date;
  updatedAt!: Date;
}

export const DocumentCounterSchema = SchemaFactory.createForClass(DocumentCounter);
DocumentCounterSchema.index({ shopId: 1, series: 1, year: 1 }, { unique: true });
