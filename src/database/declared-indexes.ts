import type { Connection } from 'mongoose';
import type { DeclaredIndex } from './index-coverage';
import { indexName } from './index-coverage';

/** Every index the schemas declare (what `autoIndex` creates), plus each collection's `_id` index. */
export function declaredIndexes(connection: Connection): DeclaredIndex[] {
  const out: DeclaredIndex[] = [];
  for (const model of Object.values(connection.models)) {
    const collection = model.collection.collectionName;
    out.push({ collection, name: '_id_', key: [['_id', 1]], unique: true });
    for (const [fields, options] of model.schema.indexes()) {
      const key = Object.entries(fields).map(([f, d]): [string, 1 | -1] => [f, Number(d) < 0 ? -1 : 1]);
      out.push({
        collection,
        name: (options?.name as string) ?? indexName({ key }),
        key,
        unique: options?.unique === true,
      });
    }
  }
  return out;
}
