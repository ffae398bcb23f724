import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import type { CredentialKind } from '../common/auth/principal';

export const IDEMPOTENCY_STATES = ['in_progress', 'completed'] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];

/**
 * One `Idempotency-Key` of one exact credential (Stripe's semantics): a shop token's shop, a
 * merchant token's key, a vendor token's user — two merchant keys of one shop never share keys: the first request
 * inserts it `in_progress` (the unique index makes a concurrent retry fail → 409), and its answer
 * (status and body, sealed) is stored when it ends, to be replayed for 24 h. A 5xx answer deletes
 * it instead, so a retry runs again. Expiry is checked when read; an hourly job purges (no TTL index).
 */
@Schema({ collection: 'idempotency_keys', versionKey: false })
export class IdempotencyRecord {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true }) shopId!: Types.ObjectId;
  @Prop({ type: String, required: true }) credentialKind!: CredentialKind;
  /** The credential's id within its kind (shop id, merchant key id, portal user id: `actorOf`). */
  @Prop({ type: String, required: true }) credentialId!: string;
  /** The client's key, 1–255 printable ASCII characters. */
  @Prop({ type: String, required: true }) key!: string;
  /** SHA-256 of the canonical JSON of method, path, query and body. */
  @Prop({ type: String, required: true }) fingerprint!: string;
  @Prop({ type: String, enum: IDEMPOTENCY_STATES, required: true }) state!: IdempotencyState;
  /** The running request's claim; a claim past `lockedUntil` belongs to a dead process and can be taken over. */
  @Prop({ type: String, default: null }) lockId!: string | null;
  @Prop({ type: Date, default: null }) lockedUntil!: Date | null;
  /** The stored answer (completed records). */
  @Prop({ type: Number, default: null }) status!: number | null;
  /** The answer's JSON body, sealed (AES-256-GCM): a merchant key's creation answer holds the key. */
  @Prop({ type: String, default: null }) body!: string | null;
  @Prop({ type: Date, required: true }) createdAt!: Date;
  @Prop({ type: Date, required: true }) expiresAt!: Date;
}

export const IdempotencyRecordSchema = SchemaFactory.createForClass(IdempotencyRecord);
IdempotencyRecordSchema.index({ shopId: 1, credentialKind: 1, credentialId: 1, key: 1 }, { unique: true });
/** The index of issue 9 (one key per credential kind), dropped at start: it would still join merchant keys. */
export const OBSOLETE_IDEMPOTENCY_INDEX = 'shopId_1_credentialKind_1_key_1';
// The purge job's cross-shop query (SystemIdempotencyRepository).
IdempotencyRecordSchema.index({ expiresAt: 1 });
