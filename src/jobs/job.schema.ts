import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';

/** `line-item-update`: the part of a by-SKU line item update done after the answer. */
export const JOB_TYPES = ['recalculation', 'line-item-update'] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** queued → running (a part started) → completed, or failed when any part failed for good. */
export const JOB_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * Long work a request started, as a resource the caller can follow (`GET /v1/jobs/{id}`). The
 * work runs as one or more queue jobs ("parts"); each part reports once (its index joins
 * `finishedParts` in the same conditional update that adds its counts, so a retried part is never
 * counted twice), and the part that completes the set settles the state.
 */
@Schema({ collection: 'jobs', timestamps: true, versionKey: false })
export class JobRecord {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: String, enum: JOB_TYPES, required: true })
  type!: JobType;

  @Prop({ type: String, enum: JOB_STATES, default: 'queued' })
  state!: JobState;

  /** Items to process (line items for a recalculation). */
  @Prop({ type: Number, required: true })
  total!: number;

  @Prop({ type: Number, default: 0 })
  done!: number;

  @Prop({ type: Number, default: 0 })
  failed!: number;

  /** Why items failed, one entry per failed part (`errors` in the API; a reserved name in mongoose). */
  @Prop({ type: [String], default: [] })
  errorMessages!: string[];

  @Prop({ type: Number, required: true })
  parts!: number;

  @Prop({ type: [Number], default: [] })
  finishedParts!: number[];

  @Prop({ type: Date, default: null })
  startedAt!: Date | null;

  @Prop({ type: Date, default: null })
  finishedAt!: Date | null;

  /**
   * Pending-event marker (DESIGN §11, events/pending-event-marker.ts): set to `finishedAt` in the
   * write that settles a recalculation job, cleared once its `line_items.recalculated` is recorded;
   * a crash in between leaves it for the events sweeper. Absent otherwise.
   */
  @Prop({ type: Date, default: undefined })
  eventPendingAt?: Date;

  createdAt!: Date;
  updatedAt!: Date;
}

export const JobRecordSchema = SchemaFactory.createForClass(JobRecord);
// Retention (SystemJobsRepository): finished jobs past the retention period are purged.
JobRecordSchema.index({ finishedAt: 1 });
// The events sweeper's cross-shop scan for settled jobs whose event a crash left unrecorded.
JobRecordSchema.index({ eventPendingAt: 1 });
