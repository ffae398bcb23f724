import { isValidObjectId, Types } from 'mongoose';

/** A path id that is not an ObjectId can match nothing: callers answer 404, never 500. */
export function toObjectId(id: string): Types.ObjectId | null {
  return typeof id === 'string' && /^[0-9a-fA-F]{24}$/.test(id) && isValidObjectId(id)
    ? new Types.ObjectId(id)
    : null;
}
