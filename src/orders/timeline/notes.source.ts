import { Injectable } from '@nestjs/common';
import { OrderNotesRepository } from '../order-notes.repository';
import type { TimelineContext, TimelineEntry, TimelineSource } from './timeline-entry';

/** The notes the caller sees (order-notes.repository.ts: a vendor its own part's, the shop all). */
@Injectable()
export class NotesTimelineSource implements TimelineSource {
  constructor(private readonly notes: OrderNotesRepository) {}

  async entries(ctx: TimelineContext): Promise<TimelineEntry[]> {
    const notes = await this.notes.forOrder(ctx.scope, ctx.orderId);
    return notes.map((n) => ({
      type: 'note' as const,
      at: n.createdAt,
      message: n.message,
      data: {
        noteId: String(n._id),
        vendorId: n.vendorId ? String(n.vendorId) : null,
        author: { kind: n.author.kind, id: n.author.id },
      },
    }));
  }
}
