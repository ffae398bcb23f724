import type { AuditRecord } from '../audit/audit-record';

/**
 * The outbound event catalogue (DESIGN §11, issue 19): every event type a webhook endpoint can
 * subscribe to, what it reports and whether this build emits it yet. Adding an event type is one
 * entry here plus one `EventSink.emit` call from the feature (or an audit action mapped in `fromAudit`).
 * Bodies are versioned with the API generation: `data.object` is the v1 representation.
 */
export interface EventTypeSpec {
  description: string;
  /** The API representation in `data.object` (the OpenAPI schema name of its DTO). */
  object: string;
  /** False: documented and subscribable, emitted once the work it depends on lands. */
  emitted: boolean;
  /**
   * A merchant token reads this object (vendors, portal users, payout adjustments): an endpoint a
   * merchant token configured may receive it. The rest (orders, line items, refunds, batches,
   * balances, transfers) answers a merchant token 403, so its events need a shop token too.
   */
  merchant: boolean;
}

export const EVENT_CATALOGUE = {
  'vendor.created': {
    description: 'A vendor was created.',
    object: 'VendorDto',
    emitted: true,
    merchant: true,
  },
  'vendor.updated': {
    description: "A vendor's name, commission, address, profile or active flag changed.",
    object: 'VendorDto',
    emitted: true,
    merchant: true,
  },
  'vendor.deactivated': {
    description: 'A vendor was deactivated.',
    object: 'VendorDto',
    emitted: true,
    merchant: true,
  },
  'user.created': {
    description: 'A vendor portal user was created.',
    object: 'UserDto',
    emitted: true,
    merchant: true,
  },
  'user.updated': {
    description: "A portal user's email, password, approval or role changed.",
    object: 'UserDto',
    emitted: true,
    merchant: true,
  },
  'user.deleted': {
    description: 'A portal user was deleted.',
    object: 'DeletedObjectDto',
    emitted: true,
    merchant: true,
  },
  'vendor_api_key.created': {
    description:
      'A vendor API key was created (by the shop, a merchant token or a portal user); never its secret.',
    object: 'VendorApiKeyDto',
    emitted: true,
    merchant: true,
  },
  'vendor_api_key.revoked': {
    description: 'A vendor API key was revoked: its tokens are refused from then on.',
    object: 'VendorApiKeyDto',
    emitted: true,
    merchant: true,
  },
  'order.received': {
    description:
      'An order arrived from the store platform: once per order, on its first ingestion (whichever payload brought it), with the vendors on it.',
    object: 'OrderReceivedDto',
    emitted: true,
    merchant: false,
  },
  'line_items.updated': {
    description:
      "A line item's figures were changed by hand (POST /v1/lineitems/update, items or by-SKU mode): one event per line item written, with the line item as the order's line items list shows it.",
    object: 'LineItemDto',
    emitted: true,
    merchant: false,
  },
  'line_items.recalculated': {
    description:
      'A recalculation job (POST /v1/lineitems/update with `recalculate`) settled: the job as GET /v1/jobs/{id} shows it (its id, state, counts).',
    object: 'JobDto',
    emitted: true,
    merchant: false,
  },
  'refund.recorded': {
    description:
      'Refund rows were cut for a vendor (one event per order and vendor, with the refund rows: negative figures, what is clawed back).',
    object: 'RefundRecordedDto',
    emitted: true,
    merchant: false,
  },
  'fulfillment.created': {
    description:
      'A line item was fulfilled (POST /v1/fulfillments, or a platform fulfillment on a line with none): the line item with its `fulfillment`.',
    object: 'LineItemDto',
    emitted: true,
    merchant: false,
  },
  'fulfillment.updated': {
    description:
      'The fulfillment of a line changed (tracking through PUT /fulfillments/{lineItemId}, or a platform fulfillment update: tracking, shipment status): the line item (`_id`, `orderId`, `vendorId`) with its `fulfillment`.',
    object: 'LineItemDto',
    emitted: true,
    merchant: false,
  },
  'fulfillment.cancelled': {
    description:
      'The fulfillment of a line was cancelled (DELETE /fulfillments/{lineItemId}; one event per line the platform fulfillment covered): the line item (`_id`, `orderId`, `vendorId`), unfulfilled again.',
    object: 'LineItemDto',
    emitted: true,
    merchant: false,
  },
  'payout_batch.paid': {
    description: 'A payout batch settled with a positive net and paid the vendor (status `completed`).',
    object: 'PayoutBatchDto',
    emitted: true,
    merchant: false,
  },
  'payout_batch.carried_forward': {
    description:
      "A batch's net was zero or below: nothing paid, every row stays due, the net is the next batch's opening balance.",
    object: 'PayoutBatchDto',
    emitted: true,
    merchant: false,
  },
  'payout_run.completed': {
    description:
      "A scheduled payout run (DESIGN §15) completed: every vendor's batch settled (or the vendor skipped), with the run's totals (paid, carried forward, below the minimum).",
    object: 'PayoutRunDto',
    emitted: true,
    merchant: false,
  },
  'payout_adjustment.created': {
    description: 'A payout adjustment was created.',
    object: 'PayoutAdjustmentDto',
    emitted: true,
    merchant: true,
  },
  'payout_adjustment.updated': {
    description: 'A payout adjustment changed.',
    object: 'PayoutAdjustmentDto',
    emitted: true,
    merchant: true,
  },
  'payout_adjustment.deleted': {
    description: 'A payout adjustment was deleted.',
    object: 'DeletedObjectDto',
    emitted: true,
    merchant: true,
  },
  'payout_adjustment.paid': {
    description: 'A paid payout batch paid an adjustment (one event per adjustment and batch).',
    object: 'PayoutAdjustmentDto',
    emitted: true,
    merchant: true,
  },
  'balance.negative': {
    description:
      "A vendor's `due` went below zero (a refund after a payout, a carried-forward batch): once per crossing, with the balance as GET /v1/vendors/{id}/balance shows it. Back at zero or above, the next drop is a new crossing.",
    object: 'VendorBalanceDto',
    emitted: true,
    merchant: false,
  },
  'transfer.paid': {
    description:
      "A paid batch's transfer reached the vendor (the provider confirmed it, or an operator recorded the bank reference).",
    object: 'TransferDto',
    emitted: true,
    merchant: false,
  },
  'transfer.failed': {
    description:
      "A paid batch's transfer failed or was reversed; its amount (for a reversal, what was taken back) is credited back as an ADDITION the next batch pays. Sent again for each further partial reversal, with the new total in `reversedAmount` and its credit in `creditAdjustmentIds`.",
    object: 'TransferDto',
    emitted: true,
    merchant: false,
  },
  'commission_rule.created': {
    description: 'A commission rule of the ladder was created (POST /v1/commissions/rules): the rule.',
    object: 'CommissionRuleDto',
    emitted: true,
    merchant: false,
  },
  'commission_rule.updated': {
    description: 'A commission rule was replaced (PUT /v1/commissions/rules/{id}): the rule as it is now.',
    object: 'CommissionRuleDto',
    emitted: true,
    merchant: false,
  },
  'commission_rule.deleted': {
    description: 'A commission rule was deleted: `{_id, deleted: true}`.',
    object: 'DeletedObjectDto',
    emitted: true,
    merchant: false,
  },
  'document.issued': {
    description:
      'A document was issued (DESIGN §14: a commission invoice, credit note, self-billed invoice or payout statement of a paid batch): the document as GET /v1/documents/{id} shows it, without any tax id.',
    object: 'DocumentDto',
    emitted: true,
    merchant: false,
  },
  ping: {
    description: 'A test event (POST /v1/webhook-endpoints/{id}/test); sent to that endpoint only.',
    object: 'PingDto',
    emitted: true,
    merchant: true,
  },
} as const satisfies Record<string, EventTypeSpec>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];
/** What an endpoint may subscribe to: every type, or `*` alone. */
export const SUBSCRIBABLE = ['*', ...EVENT_TYPES.filter((t) => t !== 'ping')] as const;

/** The types an endpoint configured with a merchant token may receive (`*` stands for these). */
export const MERCHANT_EVENT_TYPES = EVENT_TYPES.filter((t) => EVENT_CATALOGUE[t].merchant);

/** Whether a merchant token reads the object of this event type (unknown types: no). */
export function merchantReads(type: string): boolean {
  return isEventType(type) && EVENT_CATALOGUE[type].merchant;
}

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
    case 'vendor_api_key.create':
      return 'vendor_api_key.created';
    case 'vendor_api_key.revoke':
      return 'vendor_api_key.revoked';
    case 'line_item.fulfill':
      return 'fulfillment.created';
    case 'line_item.fulfillment.update':
      return 'fulfillment.updated';
    case 'line_item.fulfillment.cancel':
      return 'fulfillment.cancelled';
    case 'line_item.update':
      return 'line_items.updated';
    case 'payout_adjustment.create':
      return 'payout_adjustment.created';
    case 'payout_adjustment.update':
      return 'payout_adjustment.updated';
    case 'payout_adjustment.delete':
      return 'payout_adjustment.deleted';
    case 'commission_rule.create':
      return 'commission_rule.created';
    case 'commission_rule.update':
      return 'commission_rule.updated';
    case 'commission_rule.delete':
      return 'commission_rule.deleted';
    // Records written before the audit actions took the present tense (ADR 0051): still emitted.
    case 'commission_rule.created':
    case 'commission_rule.updated':
    case 'commission_rule.deleted':
      return record.action;
    default:
      return null;
  }
}
