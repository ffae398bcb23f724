import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/auth/principal';
import { ValidationError } from '../common/errors';
import { shopScope, type ShopScope } from '../common/tenancy';
import { AddOrderNoteDto, OrderNoteDto, OrderTimelineDto } from './dto/order-timeline.dto';
import type { NoteAuthor } from './order-note.schema';
import { OrderNotesRepository } from './order-notes.repository';
import { OrderLookup } from './order-lookup';
import { mergeTimeline, TIMELINE_SOURCES, type TimelineSource } from './timeline/timeline-entry';

/**
 * GET and POST /orders/{id}/timeline: what happened to the caller's part of an order, assembled
 * from every TimelineSource, and the notes written on it.
 */
@Injectable()
export class OrderTimelineService {
  constructor(
    private readonly lookup: OrderLookup,
    private readonly notes: OrderNotesRepository,
    @Inject(TIMELINE_SOURCES) private readonly sources: TimelineSource[],
  ) {}

  async timeline(scope: ShopScope, idParam: string): Promise<OrderTimelineDto> {
    const { orderId, summary, lines } = await this.lookup.find(scope, idParam);
    const ctx = { scope, orderId, summary, lines };
    const lists = await Promise.all(this.sources.map((s) => s.entries(ctx)));
    return {
      orderRef: String(summary.orderRef),
      orderId,
      entries: mergeTimeline(lists).map((e) => ({ ...e, at: e.at.toISOString() })),
    };
  }

  async addNote(
    scope: ShopScope,
    principal: Principal,
    idParam: string,
    body: AddOrderNoteDto,
  ): Promise<OrderNoteDto> {
    if (scope.vendorId && body.vendorId !== undefined) {
      throw new ValidationError('vendorId is for shop tokens: a vendor’s note is on its own part', {
        fields: { vendorId: ['not allowed with a vendor token'] },
      });
    }
    const { orderId } = await this.lookup.find(scope, idParam);
    if (!scope.vendorId && body.vendorId !== undefined) {
      if (!(await this.lookup.vendorHasPart(shopScope(scope.shopId, body.vendorId), orderId))) {
        throw new ValidationError('vendorId has no line items on this order', {
          fields: { vendorId: ['has no line items on this order'] },
        });
      }
    }
    const note = await this.notes.add(scope, {
      orderId,
      vendorId: scope.vendorId ?? body.vendorId ?? null,
      author: authorOf(principal),
      message: body.message,
    });
    return {
      _id: String(note._id),
      orderId: note.orderId,
      vendorId: note.vendorId ? String(note.vendorId) : null,
      author: { kind: note.author.kind, id: note.author.id },
      message: note.message,
      createdAt: note.createdAt.toISOString(),
    };
  }
}

/** The note's author from the verified credential: the shop, a portal user, or a vendor API key. */
export function authorOf(p: Principal): NoteAuthor {
  if (p.kind !== 'vendor') return { kind: 'shop', id: p.shopId };
  if (p.userId) return { kind: 'vendor_user', id: p.userId };
  const key = (p as Principal & { keyId?: string }).keyId;
  return { kind: 'vendor_api_key', id: key ?? p.vendorId! };
}
