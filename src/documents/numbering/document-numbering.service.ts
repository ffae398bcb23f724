import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { NotFoundError } from '../../common/errors';
import { crashPoint } from '../../common/faults/crash-point';
import { toObjectId, type ShopScope } from '../../common/tenancy';
import { ShopLegalService } from '../../shops/shop-legal.service';
import type { DocumentNumbering } from '../document-numbering.port';
import { isNumbered, type NumberedDocumentType } from '../document.types';
import type { SeriesKey } from './document-counter.schema';
import { CounterState, DocumentCountersRepository } from './document-counters.repository';
import { formatDocumentNumber, seriesOf } from './document-number-format';
import { DocumentNumbersRepository } from './document-numbers.repository';
import { NumberedDocumentsRepository } from './numbered-documents.repository';

/** How long a call keeps trying before it gives up (each round, some holder makes progress). */
const GIVE_UP_AFTER_MS = 30_000;
/** A held slot is looked at again after this (ms, plus as much jitter) before its holder is helped. */
const PATIENCE_MS = 10;

type Held = CounterState & { holder: Types.ObjectId };

/**
 * The gap-free number allocator (DESIGN §14; docs-notes/doc-number.md): per shop, series and year
 * of issue, without transactions. A number is taken in three single-document steps while the
 * series' slot is held — claim the slot (1), register the number and put it on the document (2),
 * move the series on and free the slot (3) — and whoever finds the slot held by a document that
 * makes no progress finishes that document's steps, so a killed process leaves neither a gap nor a
 * blocked series. Calling it again for a numbered document answers its number.
 */
@Injectable()
export class DocumentNumberingService implements DocumentNumbering {
  constructor(
    private readonly counters: DocumentCountersRepository,
    private readonly register: DocumentNumbersRepository,
    private readonly documents: NumberedDocumentsRepository,
    @Inject(ShopLegalService) private readonly legal: Pick<ShopLegalService, 'get'>,
  ) {}

  async assign(
    scope: ShopScope,
    documentId: string,
    type: NumberedDocumentType,
    issuedAt: Date,
  ): Promise<string> {
    if (!isNumbered(type)) throw new Error(`${String(type)} documents are not numbered`);
    const key = seriesOf(type, issuedAt);
    const id = toObjectId(documentId);
    // The document must exist before it may hold the slot: a holder is finished by reading it.
    const current = id && (await this.documents.numberOf(scope, id));
    if (!id || !current) throw new NotFoundError('Document');
    if (current.number) return current.number;
    const prefix = (await this.legal.get(scope)).prefixes[type];

    const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
    let seen = null as CounterState | null;
    while (Date.now() < giveUpAt) {
      const at = await this.counters.claim(scope, key, id);
      if (at.holder?.equals(id)) {
        crashPoint('numbering:claimed');
        const number = await this.finish(scope, key, at as Held, prefix);
        if (number) return number;
        throw new NotFoundError('Document');
      }
      if (at.holder && seen?.holder?.equals(at.holder) && seen.next === at.next) {
        // The same holder at the same number after a pause: dead or stalled. Its steps are ours to finish.
        await this.finish(scope, key, at as Held, prefix);
        seen = null;
        continue;
      }
      seen = at.holder ? at : null;
      if (at.holder) await pause();
    }
    throw new Error(`no number for document ${documentId} within ${GIVE_UP_AFTER_MS / 1000} s`);
  }

  /**
   * Steps 2 and 3 for the document holding the slot at `at` (the caller's own, or another's). The
   * document is read after the counter was: if it has a number then, that number was given before
   * this hold (a repeated call), and the slot is freed with its number unused. Otherwise the hold's
   * number is registered, put on the document unless something else got there, and the series
   * moved on only when the document carries exactly this number. Every write is conditional, so
   * running this twice, or after a process that died at any line, changes nothing more.
   * Returns the holder's number, null when it has no document (never the case: see `assign`).
   */
  private async finish(scope: ShopScope, key: SeriesKey, at: Held, prefix: string): Promise<string | null> {
    let doc = await this.documents.numberOf(scope, at.holder);
    if (!doc) {
      await this.counters.release(scope, key, at);
      return null;
    }
    if (!doc.number) {
      const given = await this.register.register(scope, key, {
        documentId: at.holder,
        seq: at.next,
        number: formatDocumentNumber(prefix, key.year, at.next),
      });
      if (!given.documentId.equals(at.holder))
        throw new Error(
          `${key.series} ${key.year} number ${at.next} is registered to another document: refusing a duplicate`,
        );
      crashPoint('numbering:registered');
      doc = await this.documents.setNumberIfUnset(scope, at.holder, key, given);
      if (!doc) throw new Error('a numbered document disappeared');
      crashPoint('numbering:written');
    }
    const tookThisNumber = doc.series === key.series && doc.year === key.year && doc.seq === at.next;
    if (tookThisNumber) await this.counters.advance(scope, key, at);
    else await this.counters.release(scope, key, at);
    crashPoint('numbering:advanced');
    return doc.number;
  }
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, PATIENCE_MS + Math.random() * PATIENCE_MS));
}
