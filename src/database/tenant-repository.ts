import { Model, Types } from 'mongoose';
import { chunkedBulkWrite } from './bulk-write';
import { countMatching } from './count';
import { PageFloors } from './page-floors';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { storedDocuments } from './stored-documents';
import { allOf } from './query-filters';
import { joinedRead, unionPart, type JoinedRead, type UnionPart } from './read-together';
import { CursorRows, CursorWindow } from '../common/pagination';
import { cursorQuery } from './cursor-query';
import type { ShopScope } from '../common/tenancy/scope';
import { toObjectId } from '../common/tenancy/object-id';

/** Anything that stores an owner shop; `vendorId` on vendor-owned records. */
export interface TenantDocument {
  shopId: Types.ObjectId;
}

/**
 * Base of every tenant repository. `scoped()` merges the tenant last, so no caller-supplied filter
 * can widen or replace it; vendor callers are narrowed to their vendor where the collection has one.
 */
export abstract class TenantRepository<T extends TenantDocument> {
  /** Name of the field that holds the owning vendor, or null when the collection is shop-level. */
  protected readonly vendorField: string | null = null;

  /** Where this repository's newest-first pages ended (`newestFirst`). */
  private readonly floors = new PageFloors();

  protected constructor(protected readonly model: Model<T>) {}

  protected scoped(scope: ShopScope, filter: Record<string, unknown> = {}): Record<string, unknown> {
    // An undefined value is an absent filter (optional query parameters), never "match null".
    const given = Object.entries(filter).filter(([, v]) => v !== undefined);
    const out: Record<string, unknown> = {
      ...Object.fromEntries(given),
      shopId: new Types.ObjectId(scope.shopId),
    };
    if (scope.vendorId && this.vendorField) out[this.vendorField] = new Types.ObjectId(scope.vendorId);
    return out;
  }

  /**
   * This collection's part of a combined read of several collections (database/read-together.ts):
   * the scope's documents matching `filter`, scoped exactly as this repository's own reads.
   */
  protected readPart(
    tag: string,
    scope: ShopScope,
    filter: Record<string, unknown>,
    projection: Record<string, 0 | 1> | undefined,
    sort?: Record<string, 1 | -1>,
    joins: JoinedRead[] = [],
  ): UnionPart {
    return unionPart(
      tag,
      this.model.collection.collectionName,
      this.scoped(scope, filter),
      projection,
      sort,
      joins,
    );
  }

  /** This collection's documents of the scope joined to another part's documents (read-together.ts). */
  protected joinedRead(
    as: string,
    scope: ShopScope,
    localField: string,
    foreignField: string,
    filter: Record<string, unknown>,
    projection: Record<string, 0 | 1>,
  ): JoinedRead {
    return joinedRead(
      as,
      this.model.collection.collectionName,
      localField,
      foreignField,
      this.scoped(scope, filter),
      projection,
    );
  }

  /** The scope's document with this id; null for another shop's, an unknown or a malformed id. */
  protected findOneById<R = T>(scope: ShopScope, id: string | Types.ObjectId): Promise<R | null> {
    const _id = typeof id === 'string' ? toObjectId(id) : id;
    if (!_id) return Promise.resolve(null);
    return this.model.findOne(this.scoped(scope, { _id })).lean().exec() as Promise<R | null>;
  }

  /**
   * New documents of the scope in one unordered insert. False when a unique index refused any of
   * them (they already existed: a replay or a concurrent writer); the others are written.
   */
  protected async insertUnlessExists(scope: ShopScope, docs: object[]): Promise<boolean> {
    return (await this.insertRows(scope, docs)) === docs.length;
  }

  /**
   * Inserts new documents of the scope in one unordered insert, without building mongoose documents
   * (database/stored-documents.ts: the schema's defaults, timestamps and validators, no casting).
   * Returns how many were stored: a document whose unique key exists already is skipped (counted by
   * the driver, whichever of them collided); any other error is thrown.
   */
  protected async insertRows(scope: ShopScope, docs: object[]): Promise<number> {
    if (docs.length === 0) return 0;
    try {
      const rows = storedDocuments(
        this.model,
        docs.map((d) => ({ ...d, ...this.owner(scope) })),
        new Date(),
      );
      return (await this.model.collection.insertMany(rows, { ordered: false })).insertedCount;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // the driver's bulk write error counts the documents it did insert
      const inserted = (err as { result?: { insertedCount?: number } }).result?.insertedCount;
      return typeof inserted === 'number' ? inserted : 0;
    }
  }

  /**
   * One page of a v1 offset list plus the total. The count query is skipped when the page itself
   * proves the total (a short page), which halves the reads of most list calls.
   */
  protected async offsetPage<R = T>(
    scope: ShopScope,
    filter: Record<string, unknown>,
    sort: Record<string, 1 | -1>,
    page: { offset: number; limit: number },
    projection?: Record<string, 0 | 1>,
  ): Promise<{ total: number; items: R[] }> {
    const where = this.scoped(scope, filter);
    const items = await this.newestFirst<R>(
      where,
      sort,
      page,
      (bounded) =>
        this.model
          .find(bounded, projection)
          .sort(sort)
          .skip(page.offset)
          .limit(page.limit)
          .lean()
          .exec() as Promise<R[]>,
    );
    if (items.length > 0 && items.length < page.limit) return { total: page.offset + items.length, items };
    if (items.length === 0 && page.offset === 0) return { total: 0, items };
    return { total: await this.countWhere(scope, filter), items };
  }

  /** How many of the scope's documents match (the `count` command: database/count.ts). */
  protected countWhere(
    scope: ShopScope,
    filter: Record<string, unknown> = {},
    limit?: number,
  ): Promise<number> {
    return countMatching(this.model, this.scoped(scope, filter), limit);
  }

  /**
   * One window of a V2 cursor list, newest first by (`timeField`, `_id`): `size + 1` rows in the
   * window's scan order, whether any row lies behind the boundary, and the list's total. The seek
   * condition goes through `scoped()` like any filter, so it cannot widen the tenant.
   */
  protected async cursorPage<R = T>(
    scope: ShopScope,
    filter: Record<string, unknown>,
    window: CursorWindow,
    options: { timeField?: string; projection?: Record<string, 0 | 1> } = {},
  ): Promise<CursorRows<R>> {
    const { sort, seek, behind } = cursorQuery(window, options.timeField);
    const [rows, behindCount, totalCount] = await Promise.all([
      this.newestFirst<R>(
        this.scoped(scope, allOf(seek, filter)),
        sort,
        { offset: 0, limit: window.size + 1 },
        (bounded) =>
          this.model
            .find(bounded, options.projection)
            .sort(sort)
            .limit(window.size + 1)
            .lean()
            .exec() as Promise<R[]>,
      ),
      // Whether anything lies behind the boundary: a count that stops at one (no document fetched).
      behind ? this.countWhere(scope, allOf(behind, filter), 1) : 0,
      this.countWhere(scope, filter),
    ]);
    return { rows, hasMoreBehind: behindCount > 0, totalCount };
  }

  /**
   * A newest-first page (`sort` leads with a time field, descending) of `limit` rows after `offset`, first read from
   * where the same page ended last time (database/page-floors.ts: the development store reads a
   * query's whole index range before its limit). `read` gets the filter to send: `where`, or
   * `where` bounded to the remembered time on. A bounded read that does not fill the page is read
   * again unbounded and its floor forgotten; a full page remembers its last row's time. Pages whose
   * filter already names the time field, or that are not newest first, are read as they are.
   * MongoDB: stops its index scan after the page already; the floor changes neither plan nor answer.
   */
  protected async newestFirst<R>(
    where: Record<string, unknown>,
    sort: Record<string, 1 | -1>,
    page: { offset: number; limit: number },
    read: (filter: Record<string, unknown>) => Promise<R[]>,
  ): Promise<R[]> {
    const [field, dir] = Object.entries(sort)[0] ?? [];
    const want = page.limit;
    const usable = field !== undefined && field !== '_id' && dir === -1 && !(field in where);
    if (!usable || want <= 0) return read(where);
    const key = `${page.offset}+${want}:${JSON.stringify(sort)}:${JSON.stringify(where)}`;
    const floor = this.floors.get(key);
    let rows = await read(floor ? { ...where, [field]: { $gte: floor } } : where);
    if (floor && rows.length < want) {
      // rows left the range since it was remembered: the whole range, and no floor
      this.floors.forget(key);
      rows = await read(where);
    }
    if (rows.length >= want)
      this.floors.remember(key, (rows[want - 1] as Record<string, unknown>)[field] as Date);
    return rows;
  }

  /**
   * One conditional single-document update per row (`updateOne`, in chunked bulk writes), each
   * filter scoped. Returns how many rows matched their filter.
   */
  protected async updateEach<R>(
    scope: ShopScope,
    rows: R[],
    op: (row: R) => {
      filter: Record<string, unknown>;
      set: Record<string, unknown>;
      inc?: Record<string, number>;
    },
  ): Promise<number> {
    if (rows.length === 0) return 0;
    const ops = rows.map((row) => {
      const { filter, set, inc } = op(row);
      const update = inc ? { $set: set, $inc: inc } : { $set: set };
      return { updateOne: { filter: this.scoped(scope, filter), update } };
    });
    return (await chunkedBulkWrite(this.model, ops as Parameters<Model<T>['bulkWrite']>[0])).matchedCount;
  }

  /** Extends the lease `leaseId` holds on the document; false when it was lost (lapsed and taken over). */
  protected async renewLease(
    scope: ShopScope,
    id: Types.ObjectId,
    leaseId: string,
    until: Date,
  ): Promise<boolean> {
    const res = await this.model
      .updateOne(this.scoped(scope, { _id: id, leaseId }), { $set: { leaseUntil: until } })
      .exec();
    return res.matchedCount === 1;
  }

  /** Values to stamp on a new document of this scope. */
  protected owner(scope: ShopScope): { shopId: Types.ObjectId } {
    return { shopId: new Types.ObjectId(scope.shopId) };
  }
}
