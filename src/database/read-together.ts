import type { Model, PipelineStage } from 'mongoose';

/** The field that names which part of a combined read a document came from (removed before use). */
const PART_FIELD = '_readTogetherPart';

type Doc = Record<string, unknown>;

/**
 * One collection's part of a combined read: a `$unionWith` of its documents matching a filter, in a
 * sort order, projected. Built by the collection's own repository (TenantRepository.readPart), so
 * the tenant filter is the repository's, as in its own reads.
 */
export interface UnionPart {
  tag: string;
  stage: PipelineStage.UnionWith;
}

export function unionPart(
  tag: string,
  collection: string,
  filter: Doc,
  /** Undefined: whole documents. */
  projection: Record<string, 0 | 1> | undefined,
  sort?: Record<string, 1 | -1>,
  /** Joins each document of the part to documents of another collection (JoinedRead.stage). */
  joins: JoinedRead[] = [],
): UnionPart {
  return {
    tag,
    stage: {
      $unionWith: {
        coll: collection,
        pipeline: <PipelineStage.UnionWithPipelineStage[]>[
          { $match: filter },
          ...(sort ? [{ $sort: sort }] : []),
          ...(projection ? [{ $project: projection }] : []),
          ...joins.map((j) => j.stage),
          { $set: { [PART_FIELD]: tag } },
        ],
      },
    },
  };
}

/**
 * Another collection's documents joined to each document of a part: those whose `foreignField`
 * equals the part document's `localField` and that match `filter`, into the array `as`. Built by
 * the joined collection's own repository (TenantRepository.joinedRead: its tenant filter). The
 * equality and the filter's leading fields are what an index of the joined collection serves
 * (MongoDB 5.0+: a `$lookup` with localField/foreignField and a pipeline; the index-coverage gate
 * reads it as a read of `from` with that equality).
 */
export interface JoinedRead {
  stage: PipelineStage.Lookup;
}

export function joinedRead(
  as: string,
  from: string,
  localField: string,
  foreignField: string,
  filter: Doc,
  projection: Record<string, 0 | 1>,
): JoinedRead {
  return {
    stage: {
      $lookup: {
        from,
        localField,
        foreignField,
        pipeline: [{ $match: filter }, { $project: projection }],
        as,
      },
    } as PipelineStage.Lookup,
  };
}

/**
 * The documents of `model` matching `match` and the documents of each part, in one command (an
 * aggregation with one `$unionWith` per part) instead of one round trip per collection: the
 * development store serialises commands, and each round trip costs the client about as much as the
 * server. Each part's pipeline starts with its `$match` (and `$sort`), so the planner serves it with
 * the same index as the collection's own read would (the index-coverage gate reads every part).
 * Documents come back as a lean read returns them.
 * MongoDB: serves commands in parallel, but one command still saves round trips; parts use the same indexes.
 */
export async function readTogether<H>(
  model: Model<H>,
  match: Doc,
  parts: UnionPart[],
): Promise<{ head: H[]; parts: Map<string, Doc[]> }> {
  const rows = await model.aggregate<Doc>([{ $match: match }, ...parts.map((p) => p.stage)]).exec();
  const head: H[] = [];
  const byTag = new Map<string, Doc[]>(parts.map((p) => [p.tag, []]));
  for (const row of rows) {
    const tag = row[PART_FIELD];
    if (typeof tag !== 'string') {
      head.push(row as H);
      continue;
    }
    delete row[PART_FIELD];
    byTag.get(tag)?.push(row);
  }
  return { head, parts: byTag };
}
