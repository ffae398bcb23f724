/** The mongoose query operations whose filter a schema plugin's pre hook sees (tenant guard, `_id` first). */
export const QUERY_OPS = [
  'find',
  'findOne',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'countDocuments',
  'updateOne',
  'updateMany',
  'deleteOne',
  'deleteMany',
  'replaceOne',
  'distinct',
] as const;
