import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** REPLACED BY numbering/ AT MERGE: the naive allocator's counter (naive-numbering.ts). */
@Schema({ collection: 'document_counters_naive', timestamps: false })
export class NaiveDocumentCounter {
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) series!: string;
  @Prop({ type: Number, required: true }) year!: number;
  @Prop({ type: Number, default: 0 }) seq!: number;
}
export const NaiveDocumentCounterSchema = SchemaFactory.createForClass(NaiveDocumentCounter);
NaiveDocumentCounterSchema.index({ shopId: 1, series: 1, year: 1 }, { unique: true });
