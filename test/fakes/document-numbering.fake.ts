import { Types } from 'mongoose';
import type { ShopScope } from '../../src/common/tenancy';
import type { SeriesKey } from '../../src/documents/numbering/document-counter.schema';
import type {
  CounterState,
  DocumentCountersRepository,
} from '../../src/documents/numbering/document-counters.repository';
import type {
  DocumentNumbersRepository,
  GivenNumber,
} from '../../src/documents/numbering/document-numbers.repository';
import type {
  DocumentNumberState,
  NumberedDocumentsRepository,
} from '../../src/documents/numbering/numbered-documents.repository';
import type { DocumentSeries } from '../../src/shops/shop-legal.service';
import { toResponse, type ShopLegalService } from '../../src/shops/shop-legal.service';
import type { ShopLegal } from '../../src/shops/shop.schema';

/** The process "died" right after a write (a kill -9 at that moment: the write stands, nothing after). */
export class Crash extends Error {}

/**
 * Counts the numbering's writes across the three collections: `crashAfter(n)` makes the n-th write
 * from now throw `Crash` after it is applied; `log` lists every write in order.
 */
export class Writes {
  readonly log: string[] = [];
  private crashAt: number | null = null;

  crashAfter(n: number): void {
    this.crashAt = this.log.length + n;
  }

  done(what: string): void {
    this.log.push(what);
    if (this.crashAt !== null && this.log.length === this.crashAt) {
      this.crashAt = null;
      throw new Crash(`killed after ${what}`);
    }
  }
}

/** A yield to the event loop between reading and writing, as a round trip gives other calls. */
const tick = () => new Promise<void>((r) => setImmediate(r));
const key = (scope: ShopScope, k: SeriesKey) => `${scope.shopId}/${k.series}/${k.year}`;

interface StoredCounter extends CounterState {
  shopId: string;
  series: string;
  year: number;
}

/** `document_counters` in memory: each method one conditional write, like the repository's. */
export class FakeDocumentCounters implements Pick<
  DocumentCountersRepository,
  'claim' | 'find' | 'advance' | 'release'
> {
  readonly rows = new Map<string, StoredCounter>();
  /** The documents in the order their claims succeeded (first claim of each hold). */
  readonly claims: string[] = [];

  constructor(private readonly writes: Writes) {}

  async claim(scope: ShopScope, k: SeriesKey, documentId: Types.ObjectId): Promise<CounterState> {
    await tick();
    const row = this.rows.get(key(scope, k));
    if (row?.holder && !row.holder.equals(documentId)) return { holder: row.holder, next: row.next };
    if (!row?.holder) this.claims.push(String(documentId)); // a new hold (else: a resumed one)
    if (!row) this.rows.set(key(scope, k), { shopId: scope.shopId, ...k, holder: documentId, next: 1 });
    else row.holder = documentId;
    this.writes.done(`claim ${documentId}`);
    return { holder: documentId, next: this.rows.get(key(scope, k))!.next };
  }

  async find(scope: ShopScope, k: SeriesKey): Promise<CounterState | null> {
    const row = this.rows.get(key(scope, k));
    return row ? { holder: row.holder, next: row.next } : null;
  }

  async advance(scope: ShopScope, k: SeriesKey, at: CounterState): Promise<boolean> {
    return this.move(scope, k, at, at.next + 1, 'advance');
  }

  async release(scope: ShopScope, k: SeriesKey, at: CounterState): Promise<boolean> {
    return this.move(scope, k, at, at.next, 'release');
  }

  private async move(scope: ShopScope, k: SeriesKey, at: CounterState, next: number, what: string) {
    await tick();
    const row = this.rows.get(key(scope, k));
    if (!row || !row.holder || !at.holder?.equals(row.holder) || row.next !== at.next) return false;
    row.holder = null;
    row.next = next;
    this.writes.done(`${what} ${at.holder} ${at.next}`);
    return true;
  }
}

/** `document_numbers` in memory, unique per (shop, series, year, seq) like its index. */
export class FakeDocumentNumbers implements Pick<DocumentNumbersRepository, 'register' | 'list'> {
  readonly rows = new Map<string, GivenNumber>();

  constructor(private readonly writes: Writes) {}

  async register(scope: ShopScope, k: SeriesKey, given: GivenNumber): Promise<GivenNumber> {
    await tick();
    const at = `${key(scope, k)}/${given.seq}`;
    const stored = this.rows.get(at);
    if (stored) return { ...stored };
    this.rows.set(at, { ...given });
    this.writes.done(`register ${given.documentId} ${given.seq}`);
    return { ...given };
  }

  async list(scope: ShopScope, k: SeriesKey): Promise<GivenNumber[]> {
    return [...this.rows.entries()]
      .filter(([at]) => at.startsWith(`${key(scope, k)}/`))
      .map(([, row]) => ({ ...row }))
      .sort((a, b) => a.seq - b.seq);
  }
}

interface StoredDocument extends DocumentNumberState {
  _id: Types.ObjectId;
  shopId: string;
}

/** The documents the numbering reads and numbers, in memory. */
export class FakeNumberedDocuments implements Pick<
  NumberedDocumentsRepository,
  'numberOf' | 'setNumberIfUnset'
> {
  readonly docs: StoredDocument[] = [];

  constructor(private readonly writes: Writes) {}

  /** A new, unnumbered document of the shop; its id. */
  add(scope: ShopScope): string {
    const _id = new Types.ObjectId();
    this.docs.push({ _id, shopId: scope.shopId, number: null, series: null, year: null, seq: null });
    return _id.toHexString();
  }

  get(id: string): StoredDocument {
    return this.docs.find((d) => d._id.equals(id))!;
  }

  async numberOf(scope: ShopScope, id: Types.ObjectId): Promise<DocumentNumberState | null> {
    await tick();
    const doc = this.docs.find((d) => d._id.equals(id) && d.shopId === scope.shopId);
    return doc ? { number: doc.number, series: doc.series, year: doc.year, seq: doc.seq } : null;
  }

  async setNumberIfUnset(
    scope: ShopScope,
    id: Types.ObjectId,
    k: SeriesKey,
    given: { seq: number; number: string },
  ): Promise<DocumentNumberState | null> {
    await tick();
    const doc = this.docs.find((d) => d._id.equals(id) && d.shopId === scope.shopId);
    if (doc && doc.number === null) {
      Object.assign(doc, { number: given.number, series: k.series, year: k.year, seq: given.seq });
      this.writes.done(`number ${id} ${given.number}`);
    }
    return doc ? { number: doc.number, series: doc.series, year: doc.year, seq: doc.seq } : null;
  }
}

/** The shops' legal settings, as far as numbering reads them (the prefixes). */
export class FakeShopLegal implements Pick<ShopLegalService, 'get'> {
  readonly prefixes = new Map<string, Partial<Record<DocumentSeries, string>>>();

  async get(scope: ShopScope) {
    const prefixes = this.prefixes.get(scope.shopId);
    return toResponse(prefixes ? ({ prefixes } as ShopLegal) : null);
  }
}
