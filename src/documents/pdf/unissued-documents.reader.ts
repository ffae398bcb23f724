import { Injectable } from '@nestjs/common';
import type { DocumentReader, DocumentView } from '../document.types';

/**
 * The DocumentReader until the documents store is wired in (it provides DOCUMENT_READER): no
 * document is issued, so every document read is a 404 and every invoice link a 409.
 */
@Injectable()
export class UnissuedDocuments implements DocumentReader {
  findById(): Promise<DocumentView | null> {
    return Promise.resolve(null);
  }

  findInvoiceForOrder(): Promise<DocumentView | null> {
    return Promise.resolve(null);
  }
}
