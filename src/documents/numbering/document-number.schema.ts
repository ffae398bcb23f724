import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import type { NumberedDocumentType } from '../document.types';

/**
 * The register of numbers given (DESIGN §14): one row per number of a series, written before the
 * number is put on its document. Its unique index is the last line of defence against a number
 * given twice: DESIGN §1 rules out the partial unique index the documents collection would need
 * (its unnumbered documents have no sequence number), and every row here has one. The row also
 * carries the number's text, so whoever finishes the step writes the same text on the document.
 */
@Schema({
  collection: 'document_numbers',
  versionKey: false,
  timestamps: { createdAt: true, updatedAt: false },
})
export class DocumentNumberRecord {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) series!: NumberedDocumentType;
  @Prop({ type: Number, required: true }) year!: number;
  @Prop({ type: Number, required: true }) seq!: number;
  @Prop({ type: Types.ObjectId, required: true }) documentId!: Types.ObjectId;
  /** `{prefix}{year}-{seq:06}` with the prefix of the shop's legal settings when it was given. */
  @Prop({ type: String, required: true }) number!: string;

  createdAt!: Date;
}

export const DocumentNumberRecordSchema = SchemaFactory.createForClass(DocumentNumberRecord);
DocumentNumberRecordSchema.index({ shopId: 1, series: 1, year: 1, seq: 1 }, { unique: true });
