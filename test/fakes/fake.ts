import { Types } from 'mongoose';
import type { Job, JobOptions, Queue } from 'bull';
import { Clock } from '../../src/common/clock/clock';
import { shopScope, type ShopScope } from '../../src/common/tenancy';
import type { Shop, ShopSettings } from '../../src/shops/shop.schema';
import type { ShopsService } from '../../src/shops/shops.service';
import type { UnionPart } from '../../src/database/read-together';

/**
 * Typed fakes for service-level unit tests (after immich's `test/utils.ts`): small in-memory
 * classes at the repository boundary, never mocked mongoose chains. Each fake `implements
 * Pick<RealClass, …>` of the methods the services under test call, so a renamed or re-typed method
 * breaks the fake at compile time. `asReal` hands a fake to a constructor typed with the real class.
 */
export function asReal<T>(fake: Partial<T>): T {
  return fake as T;
}

export const SHOP = shopScope(new Types.ObjectId().toHexString());
export const OTHER_SHOP = shopScope(new Types.ObjectId().toHexString());

/** Documents of a tenant collection: every fake filters by the scope's shop (and vendor) like `scoped()`. */
export function inScope<T extends { shopId: Types.ObjectId; vendorId?: Types.ObjectId | null }>(
  scope: ShopScope,
  docs: T[],
): T[] {
  return docs.filter(
    (d) => String(d.shopId) === scope.shopId && (!scope.vendorId || String(d.vendorId) === scope.vendorId),
  );
}

/** Equality filters as MongoDB applies them to stored values (ObjectIds and dates by value). */
export function matchesAll(doc: object, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([k, v]) => same((doc as Record<string, unknown>)[k], v));
}

export function same(a: unknown, b: unknown): boolean {
  if (a instanceof Types.ObjectId || b instanceof Types.ObjectId) return String(a) === String(b);
  if (a instanceof Date || b instanceof Date)
    return new Date(a as Date).getTime() === new Date(b as Date).getTime();
  return (a ?? null) === (b ?? null);
}

/** A clock the test sets. */
export class FixedClock extends Clock {
  constructor(private at = new Date('2026-11-21T12:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.at);
  }

  set(at: Date): void {
    this.at = at;
  }
}

/**
 * A part of a combined read as the fakes build it (database/read-together.ts): the rows its
 * repository would read, resolved when the combined read runs.
 */
export interface FakeUnionPart extends UnionPart {
  rows(): Array<Record<string, unknown>>;
}

export function fakePart(tag: string, rows: () => object[]): FakeUnionPart {
  return {
    tag,
    stage: { $unionWith: { coll: `fake:${tag}`, pipeline: [] } },
    rows: () => rows() as Array<Record<string, unknown>>,
  };
}

/** The shop's settings as the pricing path reads them (ShopsService.getById; FakePricingInputs). */
export class FakeShops implements Pick<ShopsService, 'getById'> {
  settings: Partial<ShopSettings> = {};
  profileFields: string[] | null = null;

  async getById(shopId: string): Promise<Shop> {
    return {
      _id: new Types.ObjectId(shopId),
      settings: this.settings,
      profileFields: this.profileFields,
    } as Shop;
  }
}

/** A Bull queue that records what was added (and can be asked for a job by id). */
export class FakeQueue implements Pick<Queue, 'add' | 'addBulk' | 'getJob'> {
  readonly jobs: Array<{ name: string; data: unknown; opts?: JobOptions }> = [];

  async add(name: unknown, data?: unknown, opts?: unknown): Promise<Job> {
    this.jobs.push({ name: name as string, data, opts: opts as JobOptions });
    return { id: (opts as JobOptions | undefined)?.jobId ?? this.jobs.length } as Job;
  }

  async addBulk(jobs: Array<{ name?: string; data: unknown; opts?: JobOptions }>): Promise<Job[]> {
    return Promise.all(jobs.map((j) => this.add(j.name, j.data, j.opts)));
  }

  async getJob(): Promise<Job | null> {
    return null;
  }

  named(name: string): unknown[] {
    return this.jobs.filter((j) => j.name === name).map((j) => j.data);
  }
}
