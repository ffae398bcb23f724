import { Module } from '@nestjs/common';
import { authConfig, type AuthConfig, platformConfig, type PlatformConfig } from '../../config/configuration';
import { LineItemsModule } from '../../line-items/line-items.module';
import { OrdersDataModule } from '../../order-data/orders-data.module';
import { OrderLookup } from '../../orders/order-lookup';
import { ShopsModule } from '../../shops/shops.module';
import { DocumentsModule } from '../documents.module';
import { DocumentLinkSigner, linkKeys } from '../links/document-link.signer';
import { DocumentLinksController } from '../links/document-links.controller';
import { DocumentLinksService } from '../links/document-links.service';
import { DocumentPdfV1Controller, DocumentPdfV2Controller } from './document-pdf.controllers';
import { DocumentPdfService } from './document-pdf.service';

/**
 * Document PDFs and signed document links (DESIGN §14). Reads issued documents only through the
 * DocumentReader port (DOCUMENT_READER, provided and exported by the documents store's DocumentsModule).
 */
@Module({
  imports: [DocumentsModule, OrdersDataModule, LineItemsModule, ShopsModule],
  controllers: [DocumentPdfV1Controller, DocumentPdfV2Controller, DocumentLinksController],
  providers: [
    DocumentPdfService,
    DocumentLinksService,
    OrderLookup,
    {
      provide: DocumentLinkSigner,
      useFactory: (platform: PlatformConfig, auth: AuthConfig) =>
        new DocumentLinkSigner(
          linkKeys({
            encryptionKey: platform.encryptionKey,
            previousEncryptionKey: platform.previousEncryptionKey,
            jwtSecret: auth.jwtSecret,
          }),
        ),
      inject: [platformConfig.KEY, authConfig.KEY],
    },
  ],
})
export class DocumentPdfModule {}
