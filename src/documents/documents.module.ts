import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { EventSinkModule } from '../event-port/event-sink';
import { LineItemsModule } from '../line-items/line-items.module';
import { PayoutsModule } from '../payouts/payouts.module';
import { ShopsModule } from '../shops/shops.module';
import { TaxProfilesModule } from '../tax-profiles/tax-profiles.module';
import { TransfersModule } from '../transfers/transfers.module';
import { DocumentEvents } from './document-events';
import { DocumentIssuer } from './document-issuer.service';
import { DOCUMENT_READER } from './document.types';
import { DocumentsRepository } from './documents.repository';
import { DocumentsService } from './documents.service';
import { DocumentsV1Controller } from './documents.v1.controller';
import { DocumentsV2Controller } from './documents.v2.controller';
import { IssuedDocument, IssuedDocumentSchema } from './issued-document.schema';
import { DocumentNumberingModule } from './numbering/document-numbering.module';

/**
 * Documents (DESIGN §14): issued when a payout batch completes (the batch's `documentsDue`, a job on
 * the documents queue, a sweeper), read as JSON. Reads batches, rows, the shop's legal settings, the
 * vendor's tax profile and the transfer currency through their own features; owns `documents`.
 * Exports the DocumentReader (PDF routes, signed links) and the issuer (the processors).
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: IssuedDocument.name, schema: IssuedDocumentSchema }]),
    // the gap-free allocator behind DOCUMENT_NUMBERING
    DocumentNumberingModule,
    PayoutsModule,
    LineItemsModule,
    ShopsModule,
    TaxProfilesModule,
    TransfersModule,
    EventSinkModule,
  ],
  controllers: [DocumentsV1Controller, DocumentsV2Controller],
  providers: [
    DocumentsRepository,
    DocumentsService,
    DocumentEvents,
    DocumentIssuer,
    { provide: DOCUMENT_READER, useExisting: DocumentsService },
  ],
  exports: [DOCUMENT_READER, DocumentIssuer, DocumentsRepository],
})
export class DocumentsModule {}
