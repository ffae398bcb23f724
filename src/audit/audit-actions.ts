/**
 * What the audit trail records: the kinds of resource, the actions on them and who can act. Every
 * action belongs to one resource type (its prefix), so a filter on either stays a small set.
 */
export const AUDIT_RESOURCE_TYPES = [
  'vendor',
  'user',
  'sku_commission',
  'shop',
  'line_item',
  'payout_adjustment',
  'payout_batch',
  'merchant_key',
  'vendor_api_key',
  'payout_method',
  'transfer',
  'refund',
  'webhook_endpoint',
  'commission_rule',
  // DESIGN §14: issued documents (invoices, credit notes, self-billed invoices, statements)
  'document',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export const AUDIT_ACTIONS = [
  'vendor.create',
  'vendor.update',
  'vendor.address.update',
  'vendor.profile.update',
  'vendor.deactivate',
  // DESIGN §14: the vendor's tax profile (tax id and date of birth masked in the snapshots)
  'vendor.tax_profile.update',
  // DESIGN §15: the vendor's payout settings (paused, its own hold and minimum)
  'vendor.payout_settings.update',
  'user.create',
  'user.update',
  'user.delete',
  'sku_commission.create',
  'sku_commission.update',
  'shop.settings.update',
  'shop.profile.update',
  'shop.platform.update',
  // DESIGN §14: the shop's legal settings (its tax id masked in the snapshots)
  'shop.legal.update',
  'line_item.update',
  'line_item.fulfill',
  'line_item.fulfillment.update',
  'line_item.fulfillment.cancel',
  'payout_adjustment.create',
  'payout_adjustment.update',
  'payout_adjustment.delete',
  'payout_batch.create',
  'payout_batch.carry_forward',
  'refund.record',
  // A read worth a trace: money data leaving the system as a file (CSV statement or export).
  'payout_batch.statement.export',
  'shop.payouts.export',
  // DESIGN §14: the seller tax report (DAC7) taken out, JSON or CSV: year, format and row count only
  'shop.seller_tax_report.export',
  'merchant_key.create',
  'merchant_key.rotate',
  'merchant_key.revoke',
  'vendor_api_key.create',
  'vendor_api_key.revoke',
  'shop.payout_providers.update',
  'payout_method.update',
  'transfer.confirm',
  'transfer.fail',
  'transfer.retry',
  // An operator asked the provider about a pending or sent transfer and applied its answer.
  'transfer.follow_up',
  // An outbound-events endpoint the server disabled (410 Gone, or every attempt failing for 5 days).
  'webhook_endpoint.disable',
  // Outbound-events endpoints (issue 28): the writes of the shop or a merchant token, a replay
  // (deliveries restarted), and the start-up narrowing of a merchant's endpoint (actor platform).
  'webhook_endpoint.create',
  'webhook_endpoint.update',
  'webhook_endpoint.delete',
  'webhook_endpoint.rotate_secret',
  'webhook_endpoint.replay',
  'webhook_endpoint.narrow',
  // Commission rules of the ladder (DESIGN §13): each write, also an outbound event (past tense there).
  'commission_rule.create',
  'commission_rule.update',
  'commission_rule.delete',
  // Read, never written: records made before the rename (ADR 0051) keep their names.
  'commission_rule.created',
  'commission_rule.updated',
  'commission_rule.deleted',
  // DESIGN §14: a document was issued (never its parties' tax ids)
  'document.issue',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Actions stored records may carry but no write uses any more (filters and events still read them). */
export const LEGACY_AUDIT_ACTIONS = [
  'commission_rule.created',
  'commission_rule.updated',
  'commission_rule.deleted',
] as const satisfies readonly AuditAction[];

/** `platform`: the store platform's webhooks and the work they cause (refunds, batches it settles). */
export const AUDIT_ACTOR_KINDS = ['shop', 'merchant', 'vendor', 'platform'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
