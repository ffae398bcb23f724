import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';
import { DEFAULT_PREFIXES, ShopLegalService } from '../shops/shop-legal.service';
import type { DocumentNumbering } from './document-numbering.port';
import type { NumberedDocumentType } from './document.types';
import { DocumentsRepository } from './documents.repository';
import { NaiveDocumentCounters } from './naive-document-counters.repository';

/*
 * REPLACED BY numbering/ AT MERGE. A minimal, real allocator so documents are numbered until the
 * gap-free one (src/documents/numbering/, bound by the lead under DOCUMENT_NUMBERING) lands: one
 * counter document per (shop, series, year), advanced with `$inc`. Unique and in issue order; a
 * document numbered before keeps its number. Not gap-free: a process killed between the `$inc` and
 * the document's issuing write loses that number (the real allocator's job is exactly this).
 */
@Injectable()
export class NaiveDocumentNumbering implements DocumentNumbering {
  constructor(
    private readonly counters: NaiveDocumentCounters,
    private readonly documents: DocumentsRepository,
    private readonly legal: ShopLegalService,
  ) {}

  async assign(
    scope: ShopScope,
    documentId: string,
    type: NumberedDocumentType,
    issuedAt: Date,
  ): Promise<string> {
    const doc = await this.documents.findById(scope, documentId);
    if (doc?.number) return doc.number;
    const prefix = (await this.legal.get(scope)).prefixes[type] ?? DEFAULT_PREFIXES[type];
    const year = issuedAt.getUTCFullYear();
    const seq = await this.counters.next(scope, type, year);
    return `${prefix}${year}-${String(seq).padStart(6, '0')}`;
  }
}
