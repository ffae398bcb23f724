import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { OperationContexts } from '../common/context/operation-context';
import { type ShopScope, shopScope } from '../common/tenancy';
import { EventSink } from '../event-port/event-sink';
import { publicDocumentView } from './document.mapper';
import { DocumentsRepository } from './documents.repository';
import type { IssuedDocument } from './issued-document.schema';

/**
 * What an issued document announces (DESIGN §14, §11): one audit entry (`document.issue`, actor
 * platform) and one `document.issued` event, both keyed by the document, so a repeat stores each
 * once. Neither carries a tax id. The issuing write marks the event pending (`eventPendingAt`); a
 * crash before it is recorded leaves the mark, and the events sweeper runs this class's finisher.
 */
@Injectable()
export class DocumentEvents implements OnModuleInit {
  private readonly logger = new Logger('DocumentEvents');

  constructor(
    private readonly sink: EventSink,
    private readonly documents: DocumentsRepository,
    private readonly audit: AuditTrail,
  ) {}

  onModuleInit(): void {
    this.sink.finisher({ name: 'document', finish: (before, limit) => this.finish(before, limit) });
  }

  /** Never throws: the document is issued whatever happens to its announcements. */
  async issued(scope: ShopScope, doc: IssuedDocument): Promise<void> {
    try {
      await this.emit(scope, doc);
    } catch (err) {
      this.logger.error(
        { err: (err as Error)?.message, documentId: String(doc._id) },
        'Document event not emitted',
      );
    }
  }

  /** The events sweeper: issued documents whose marker is older than `before`. */
  async finish(before: Date, limit: number): Promise<number> {
    const docs = await this.documents.eventPending(before, limit);
    for (const d of docs) await this.emit(shopScope(String(d.shopId)), d);
    return docs.length;
  }

  private async emit(scope: ShopScope, doc: IssuedDocument): Promise<void> {
    const view = publicDocumentView(doc);
    await this.audit.platformEvents(scope, 'document.issue', [
      {
        resource: { type: 'document', id: view.id },
        after: {
          type: view.type,
          number: view.number,
          vendorId: view.vendorId,
          batchId: view.batchId,
          issuedAt: view.issuedAt,
          totals: { ...view.snapshot.totals },
        },
      },
    ]);
    const recorded = await this.sink.emit(scope, [
      {
        key: `document.issued:${view.id}`,
        type: 'document.issued',
        createdAt: doc.issuedAt,
        object: { ...view },
      },
    ]);
    if (!recorded || !doc.eventPendingAt) return;
    const at = doc.eventPendingAt;
    await OperationContexts.phase('events', () => this.documents.eventRecorded(scope, doc._id, at));
  }
}
