import type { AuditRecord } from '../audit/audit-record';

/**
 * The outbound event catalogue (DESIGN §11, issue 19): every event type a webhook endpoint can
 * subscribe to, what it reports and whether this build emits it yet. Adding an event type is one
 * entry here plus one `EventsService.record` call (or an audit action mapped in `fromAudit`).
 * Bodies are versioned with the API generation: `data.object` is the v1 representation.
 */
export interface EventTypeSpec {
  description: string;
  /** The API representation in `data.object` (the OpenAPI schema name of its DTO). */
  object: string;
  /** False: documented and subscribable, emitted once the work it depends on lands. */
  emitted: boolean;
}

export const EVENT_CATALOGUE = {
  'vendor.created': { description: 'A vendor was created.', object: 'VendorDto', emitted: true },
  'vendor.updated': {
    description: "A vendor's name, commission, address, profile or active flag changed.",
    object: 'VendorDto',
    emitted: true,
  },
  'vendor.deactivated': { description: 'A vendor was deactivated.', object: 'VendorDto', emitted: true },
  'user.created': { description: 'A vendor portal user was created.', object: 'UserDto', emitted: true },
  'user.updated': {
    description: "A portal user's email, password, approval or role changed.",
    object: 'UserDto',
    emitted: true,
  },
  'user.deleted': { description: 'A portal user was deleted.', object: 'DeletedObjectDto', emitted: true },
  'order.received': {
    description: 'An order arrived from the store platform (one per order, with the vendors on it).',
    object: 'OrderReceivedDto',
    emitted: false,
  },
  'line_items.updated': {
    description: 'Line item figures were changed by hand (PUT /v1/line-items).',
    object: 'LineItemsChangeDto',
    emitted: false,
  },
  'line_items.recalculated': {
    description: 'A recalculation job finished (with the job id).',
    object: 'LineItemsChangeDto',
    emitted: false,
  },
  'refund.recorded': {
    description:
      'A refund was recorded for a vendor (with the refund rows). Emitted once refunds/netting land.',
    object: 'RefundRecordedDto',
    emitted: false,
  },
  'fulfillment.created': {
    description: 'A fulfillment was created.',
    object: 'FulfillmentDto',
    emitted: false,
  },
  'fulfillment.updated': { description: 'A fulfillment changed.', object: 'FulfillmentDto', emitted: false },
  'payout_batch.paid': {
    description: 'A payout batch paid a vendor.',
    object: 'PayoutBatchDto',
    emitted: false,
  },
  'payout_batch.carried_forward': {
    description:
      "A batch's net was zero or below and was carried forward. Emitted once refunds/netting land.",
    object: 'PayoutBatchDto',
    emitted: false,
  },
  'payout_adjustment.created': {
    description: 'A payout adjustment was created.',
    object: 'PayoutAdjustmentDto',
    emitted: true,
  },
  'payout_adjustment.updated': {
    description: 'A payout adjustment changed.',
    object: 'PayoutAdjustmentDto',
    emitted: true,
  },
  'payout_adjustment.deleted': {
    description: 'A payout adjustment was deleted.',
    object: 'DeletedObjectDto',
    emitted: true,
  },
  'payout_adjustment.paid': {
    description: 'A payout batch paid an adjustment.',
    object: 'PayoutAdjustmentDto',
    emitted: false,
  },
  'balance.negative': {
    description: "A vendor's due went below zero. Emitted once refunds/netting land.",
    object: 'VendorBalanceDto',
    emitted: false,
  },
  'transfer.paid': {
    description: "A paid batch's transfer reached the vendor. Emitted once payout rails land.",
    object: 'TransferDto',
    emitted: false,
  },
  'transfer.failed': {
    description: "A paid batch's transfer failed or was reversed. Emitted once payout rails land.",
    object: 'TransferDto',
    emitted: false,
  },
  ping: {
    description: 'A test event (POST /v1/webhook-endpoints/{id}/test); sent to that endpoint only.',
    object: 'PingDto',
    emitted: true,
  },
} as const satisfies Record<string, EventTypeSpec>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];
/** What an endpoint may subscribe to: every type, or `*` alone. */
export const SUBSCRIBABLE = ['*', ...EVENT_TYPES.filter((t) => t !== 'ping')] as const;

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOGUE, value);
}

/**
 * The outbound event an audited write reports, if any: the audit outbox already records every
 * write of a credential in the same single-document update as the change, so the event rides on
 * that record (same durability, deterministic id) instead of a second outbox.
 */
export function fromAudit(record: Pick<AuditRecord, 'action' | 'after'>): EventType | null {
  switch (record.action) {
    case 'vendor.create':
      return 'vendor.created';
    case 'vendor.deactivate':
      return 'vendor.deactivated';
    case 'vendor.update':
      return record.after?.active === false ? 'vendor.deactivated' : 'vendor.updated';
    case 'vendor.address.update':
    case 'vendor.profile.update':
      return 'vendor.updated';
    case 'user.create':
      return 'user.created';
    case 'user.update':
      return 'user.updated';
    case 'user.delete':
      return 'user.deleted';
    case 'line_item.fulfill':
      return 'fulfillment.created';
    case 'line_item.update':
      return 'line_items.updated';
    case 'payout_adjustment.create':
      return 'payout_adjustment.created';
    case 'payout_adjustment.update':
      return 'payout_adjustment.updated';
    case 'payout_adjustment.delete':
      return 'payout_adjustment.deleted';
    default:
      return null;
  }
}
