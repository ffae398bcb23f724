import { isValidObjectId, Types } from 'mongoose';
import { anyOf } from './query-filters';
import type { CursorWindow } from '../common/pagination/cursor-page';

/**
 * Mongo filter and sort for one cursor window over a newest-first list ordered by
 * (`timeField` desc, `_id` desc). `seek` selects the page's rows, `behind` the rows on the other
 * side of the boundary (used for hasPreviousPage / hasNextPage). Uses only `$or` (as `anyOf`),
 * `$lt/$gt`; combine with other conditions through `allOf`.
 */
export function cursorQuery(window: CursorWindow, timeField = 'createdAt') {
  const dir = window.direction === 'forward' ? -1 : 1;
  const sort: Record<string, 1 | -1> = { [timeField]: dir, _id: dir };
  const b = window.boundary;
  if (!b) return { sort, seek: {}, behind: undefined };
  const id = isValidObjectId(b.id) ? new Types.ObjectId(b.id) : b.id;
  const t = new Date(b.t);
  const [ahead, back, backEq] =
    window.direction === 'forward' ? ['$lt', '$gt', '$gte'] : ['$gt', '$lt', '$lte'];
  return {
    sort,
    seek: anyOf([{ [timeField]: { [ahead]: t } }, { [timeField]: t, _id: { [ahead]: id } }]),
    behind: anyOf([{ [timeField]: { [back]: t } }, { [timeField]: t, _id: { [backEq]: id } }]),
  };
}
