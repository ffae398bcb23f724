import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Types } from 'mongoose';
import { auditOutboxPlugin } from '../audit/audit-outbox';
import type { VendorScope } from '../common/auth/scopes';

export const USER_TYPES = ['vendor'] as const;

/**
 * A vendor portal user (spec §2.3). `email` is stored trimmed and lowercased and is unique per shop.
 * The password is kept only as an argon2id hash, which no query returns unless it asks for it.
 */
@Schema({ collection: 'users', timestamps: true })
export class User {
  _id!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  shopId!: Types.ObjectId;

  @Prop({ type: Types.ObjectId, required: true })
  vendorId!: Types.ObjectId;

  @Prop({ type: String, required: true })
  email!: string;

  @Prop({ type: String, required: true, select: false })
  passwordHash!: string;

  @Prop({ type: String, enum: USER_TYPES, default: 'vendor' })
  type!: 'vendor';

  /** Only approved users can sign in; un-approving refuses the user's tokens from the next request on. */
  @Prop({ type: Boolean, default: true })
  approved!: boolean;

  /**
   * Copy of the vendor's `active` flag, kept in step by vendor (de)activation, so the per-request
   * check of a vendor token is a single read of this document.
   */
  @Prop({ type: Boolean, default: true })
  vendorActive!: boolean;

  /**
   * Raised by every change that must end the user's sessions (password or email change,
   * un-approval, vendor deactivation); vendor tokens carry the version they were minted at (`cv`)
   * and are refused once it differs. Absent on older documents: 0.
   */
  @Prop({ type: Number, default: 0 })
  credentialVersion!: number;

  /**
   * The vendor scopes the user holds (DESIGN §12), checked on every request of its tokens. Absent
   * on users created before permissions existed: they hold every scope.
   */
  @Prop({ type: [String], default: undefined })
  permissions?: VendorScope[];

  @Prop({ type: Date, default: null })
  invitationDate!: Date | null;

  @Prop({ type: Date, default: null })
  lastLoggedIn!: Date | null;

  createdAt!: Date;
  updatedAt!: Date;
}

/** What every read returns: the document without its password hash. */
export type UserRecord = Omit<User, 'passwordHash'>;

export const UserSchema = SchemaFactory.createForClass(User);
UserSchema.plugin(auditOutboxPlugin);
UserSchema.index({ shopId: 1, email: 1 }, { unique: true });
UserSchema.index({ shopId: 1, createdAt: -1, _id: -1 });
UserSchema.index({ shopId: 1, vendorId: 1, createdAt: -1, _id: -1 });
