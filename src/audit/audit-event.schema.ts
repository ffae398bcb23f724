import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema, Types } from 'mongoose';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_RESOURCE_TYPES,
  type AuditAction,
  type AuditActorKind,
  type AuditResourceType,
} from './audit-actions';

@Schema({ _id: false })
export class AuditActorRef {
  @Prop({ type: String, enum: AUDIT_ACTOR_KINDS, required: true }) kind!: AuditActorKind;
  @Prop({ type: String, required: true }) id!: string;
}
const AuditActorRefSchema = SchemaFactory.createForClass(AuditActorRef);

@Schema({ _id: false })
export class AuditResourceRef {
  @Prop({ type: String, enum: AUDIT_RESOURCE_TYPES, required: true }) type!: AuditResourceType;
  @Prop({ type: String, required: true }) id!: string;
}
const AuditResourceRefSchema = SchemaFactory.createForClass(AuditResourceRef);

/**
 * The audit trail (append-only: nothing updates or deletes an event). Written only by copying an
 * event from a document's outbox or from a pending deletion (AuditTrail, AuditRepairService), under
 * the `_id` it was given when the write was prepared.
 */
@Schema({ collection: 'audit_events', versionKey: false })
export class AuditEvent {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: Date, required: true }) at!: Date;
  @Prop({ type: AuditActorRefSchema, required: true }) actor!: AuditActorRef;
  @Prop({ type: String, enum: AUDIT_ACTIONS, required: true }) action!: AuditAction;
  @Prop({ type: AuditResourceRefSchema, required: true }) resource!: AuditResourceRef;
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) before!: Record<string, unknown> | null;
  @Prop({ type: MongooseSchema.Types.Mixed, default: null }) after!: Record<string, unknown> | null;
  /** Our id of the request that made the change (never the caller's). */
  @Prop({ type: String, default: null }) requestId!: string | null;
  /** The caller's `x-request-id`, when it sent a sane one: theirs, kept apart from ours. */
  @Prop({ type: String, default: null }) clientRequestId!: string | null;
  @Prop({ type: [String], default: [] }) facets!: string[];
}

export const AuditEventSchema = SchemaFactory.createForClass(AuditEvent);
// The lists, newest first: without a filter (and a date range on the sort key), and with any
// combination of filters, each an equality on the multikey `facets` (one `{facets: …}` per filter).
AuditEventSchema.index({ shopId: 1, at: -1, _id: -1 });
AuditEventSchema.index({ shopId: 1, facets: 1, at: -1, _id: -1 });

/**
 * A deletion about to happen (the document and its outbox will be gone): written before the
 * delete, turned into its event after it (by the request, or by the repair job, which first checks
 * that the resource is really gone and otherwise drops it).
 */
@Schema({ collection: 'audit_intents', versionKey: false })
export class AuditIntent {
  /** One per delete request (two requests may set out to delete one resource; one event results). */
  _id!: Types.ObjectId;
  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  /** The collection the resource lives in (to check that it is gone). */
  @Prop({ type: String, required: true }) collectionName!: string;
  /** The deletion event, `_id` = `deletionEventId` of the resource. */
  @Prop({ type: MongooseSchema.Types.Mixed, required: true }) record!: Record<string, unknown>;
  @Prop({ type: Date, required: true }) createdAt!: Date;
}

export const AuditIntentSchema = SchemaFactory.createForClass(AuditIntent);
// The repair job's cross-shop scan for deletions a request left unfinished (a system query).
AuditIntentSchema.index({ createdAt: 1 });
