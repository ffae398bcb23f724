import type { ShopScope } from '../common/tenancy/scope';
import type { NumberedDocumentType } from './document.types';

/** Gives a document the next number of its series, exactly once (DESIGN §14). */
export interface DocumentNumbering {
  assign(scope: ShopScope, documentId: string, type: NumberedDocumentType, issuedAt: Date): Promise<string>;
}
export const DOCUMENT_NUMBERING = Symbol('DocumentNumbering');
