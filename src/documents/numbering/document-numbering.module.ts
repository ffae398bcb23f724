import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ShopsModule } from '../../shops/shops.module';
import { DOCUMENT_NUMBERING } from '../document-numbering.port';
import { DocumentCounter, DocumentCounterSchema } from './document-counter.schema';
import { DocumentCountersRepository } from './document-counters.repository';
import { DocumentNumberRecord, DocumentNumberRecordSchema } from './document-number.schema';
import { DocumentNumberingService } from './document-numbering.service';
import { DocumentNumbersRepository } from './document-numbers.repository';
import { NumberedDocument, NumberedDocumentSchema } from './numbered-document.schema';
import { NumberedDocumentsRepository } from './numbered-documents.repository';

/**
 * The gap-free numbering of documents (DESIGN §14): imported by the documents feature, which uses
 * it through the `DOCUMENT_NUMBERING` port only.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: DocumentCounter.name, schema: DocumentCounterSchema },
      { name: DocumentNumberRecord.name, schema: DocumentNumberRecordSchema },
      { name: NumberedDocument.name, schema: NumberedDocumentSchema },
    ]),
    ShopsModule,
  ],
  providers: [
    DocumentCountersRepository,
    DocumentNumbersRepository,
    NumberedDocumentsRepository,
    DocumentNumberingService,
    { provide: DOCUMENT_NUMBERING, useExisting: DocumentNumberingService },
  ],
  exports: [DOCUMENT_NUMBERING, DocumentNumberingService, DocumentNumbersRepository],
})
export class DocumentNumberingModule {}
