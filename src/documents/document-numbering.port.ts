import type { ShopScope } from '../common/tenancy';
import type { NumberedDocumentType } from './document.types';

/**
 * DESIGN §14: what issuing needs from the number allocator. `assign` gives the document its number
 * in its series (per shop, type and year of `issuedAt`): called again for the same document after a
 * crash, it answers the number it assigned before, never a second one. The gap-free allocator lives
 * in `numbering/` (DocumentNumberingModule).
 */
export interface DocumentNumbering {
  assign(scope: ShopScope, documentId: string, type: NumberedDocumentType, issuedAt: Date): Promise<string>;
}
export const DOCUMENT_NUMBERING = Symbol('DocumentNumbering');
