import type { ShopScope } from '../../common/tenancy';
import type { LineItem } from '../../line-items/line-item.schema';
import type { OrderSummary } from '../../order-data/order-summary.schema';

/**
 * Entry types in the order they sort when two share a time. `tracking_updated` comes from the
 * shipment events source (tracking.source.ts, over `shipment_events`).
 */
export const TIMELINE_ENTRY_TYPES = [
  'received',
  'paid',
  'fulfilled',
  'tracking_updated',
  'refunded',
  'paid_out',
  'note',
] as const;
export type TimelineEntryType = (typeof TIMELINE_ENTRY_TYPES)[number];

export interface TimelineEntry {
  type: TimelineEntryType;
  at: Date;
  message: string;
  data: Record<string, unknown>;
}

/**
 * What every source gets: the caller's scope (a vendor's part or the whole order), the order, the
 * caller's summary of it and the order's rows the caller sees (sale and refund rows, already read).
 */
export interface TimelineContext {
  scope: ShopScope;
  orderId: number;
  summary: OrderSummary;
  lines: LineItem[];
}

/**
 * One kind of thing that happened to an order. Sources run side by side; each reads only what the
 * caller may see (the context's rows, or its own repository with the context's scope).
 */
export interface TimelineSource {
  entries(ctx: TimelineContext): TimelineEntry[] | Promise<TimelineEntry[]>;
}

/** The DI token of the timeline's sources (orders.module.ts lists them). */
export const TIMELINE_SOURCES = Symbol('TIMELINE_SOURCES');

const RANK = new Map<string, number>(TIMELINE_ENTRY_TYPES.map((t, i) => [t, i]));

/** Every source's entries, oldest first; ties by type (TIMELINE_ENTRY_TYPES), then as the sources gave them. */
export function mergeTimeline(lists: TimelineEntry[][]): TimelineEntry[] {
  return lists
    .flat()
    .map((e, i) => ({ e, i }))
    .sort(
      (a, b) => a.e.at.getTime() - b.e.at.getTime() || RANK.get(a.e.type)! - RANK.get(b.e.type)! || a.i - b.i,
    )
    .map(({ e }) => e);
}
