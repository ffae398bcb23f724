import { Injectable } from '@nestjs/common';
import type { AuditRecord } from './audit-record';

/** Something that must happen, idempotently, with every audit event as it leaves an outbox. */
export interface AuditRelayListener {
  relayed(records: AuditRecord[]): Promise<void>;
}

/**
 * Listeners called after audit events are stored and before their outbox is emptied (by the
 * request, or the repair job after a crash). A listener that throws leaves the outbox as it is, so
 * the repair job calls it again later: what a listener derives from the records (the outbound
 * events, DESIGN §11) is as durable as the audit trail itself. Listeners register themselves (the
 * events module), so the audit trail depends on none of them.
 */
@Injectable()
export class AuditRelays {
  private readonly listeners: AuditRelayListener[] = [];

  register(listener: AuditRelayListener): void {
    this.listeners.push(listener);
  }

  async relayed(records: AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    for (const l of this.listeners) await l.relayed(records);
  }
}
