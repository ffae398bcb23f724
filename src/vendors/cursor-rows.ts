import type { Model } from 'mongoose';
import { CursorWindow, cursorQuery } from '../common/pagination';

export interface CursorRows<T> {
  /** `size + 1` rows at most, in the window's scan order (see buildCursorPage). */
  rows: T[];
  hasMoreBehind: boolean;
  totalCount: number;
}

/**
 * One cursor window of a newest-first (createdAt, _id) list. `filter` must already be tenant-scoped
 * (the repository's `scoped()`); the seek condition is merged under it, so it cannot widen the scope.
 */
export async function readCursorRows<T>(
  model: Model<T>,
  filter: Record<string, unknown>,
  window: CursorWindow,
  projection?: Record<string, 0 | 1>,
): Promise<CursorRows<T>> {
  const { sort, seek, behind } = cursorQuery(window);
  const [rows, behindRow, totalCount] = await Promise.all([
    model
      .find({ ...seek, ...filter }, projection)
      .sort(sort)
      .limit(window.size + 1)
      .lean<T[]>()
      .exec(),
    behind
      ? model
          .findOne({ ...behind, ...filter }, { _id: 1 })
          .lean()
          .exec()
      : Promise.resolve(null),
    model.countDocuments(filter).exec(),
  ]);
  return { rows, hasMoreBehind: behindRow !== null, totalCount };
}
