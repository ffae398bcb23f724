import { ForbiddenError } from '../common/errors';
import { MERCHANT_EVENT_TYPES, merchantReads, SUBSCRIBABLE } from '../event-port/event-catalogue';
import type { EndpointCredential, WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

/**
 * What a credential may subscribe a webhook endpoint to (issue 28, finding 9). A merchant token
 * reads vendors, portal users and payout adjustments and gets 403 on orders, refunds, payouts and
 * transfers, so an endpoint a merchant token configures (creates, or sets its URL or event types)
 * receives only events of what a merchant reads: its `*` stands for those, and naming any other
 * type is refused with 403 naming the types. The fan-out enforces the same (fan-out.ts `mayReceive`).
 */

type Subscription = Pick<WebhookEndpoint, 'enabledEvents'> & { eventScope?: EndpointCredential | null };

/** The types of this subscription a merchant token cannot read (`*` of a shop endpoint: all of them). */
export function unreadableByMerchant(endpoint: Subscription): string[] {
  const wildcard = endpoint.enabledEvents.includes('*');
  const listed = wildcard && endpoint.eventScope !== 'merchant' ? SUBSCRIBABLE : endpoint.enabledEvents;
  return listed.filter((t) => t !== '*' && !merchantReads(t));
}

/** The types a merchant token may name, for messages. */
export function merchantTypesText(): string {
  return MERCHANT_EVENT_TYPES.filter((t) => t !== 'ping').join(', ');
}

/**
 * Refuses a merchant token's create or change whose event types it cannot read: `requested` the
 * types the request names, `kept` the endpoint's own (a URL change keeps them).
 */
export function assertMerchantMay(enabledEvents: string[], source: 'requested' | 'kept'): void {
  const refused = unreadableByMerchant({ enabledEvents, eventScope: 'merchant' });
  if (refused.length === 0) return;
  const list = refused.join(', ');
  const message =
    source === 'requested'
      ? `A merchant token cannot subscribe an endpoint to ${list}: these events carry orders, line items, ` +
        'refunds, payouts, balances or transfers, which a merchant token cannot read. Use a shop token, or ' +
        `choose among ${merchantTypesText()} (or "*", which for a merchant token means those)`
      : `This endpoint receives ${list}, which a merchant token cannot read: only a shop token may change its ` +
        'URL, or send enabledEvents with only the types a merchant token reads';
  throw new ForbiddenError(message, { refused });
}

/** A merchant token may rotate the secret only of an endpoint that sends nothing it cannot read. */
export function assertMerchantMayRotate(endpoint: Subscription): void {
  const refused = unreadableByMerchant(endpoint);
  if (refused.length === 0) return;
  throw new ForbiddenError(
    `This endpoint receives ${refused.join(', ')}, which a merchant token cannot read: only a shop token may ` +
      'rotate its signing secret (whoever holds it can sign such events)',
    { refused },
  );
}

/** A merchant endpoint's event types without the ones a merchant cannot read (start-up narrowing). */
export function narrowForMerchant(enabledEvents: string[]): { kept: string[]; removed: string[] } {
  const removed = unreadableByMerchant({ enabledEvents, eventScope: 'merchant' });
  return { kept: enabledEvents.filter((t) => !removed.includes(t)), removed };
}

/** What the audit trail compares of an endpoint: never its secrets. */
export function endpointAuditView(e: Partial<WebhookEndpoint>): Record<string, unknown> {
  return {
    url: e.url,
    description: e.description ?? null,
    enabledEvents: e.enabledEvents,
    status: e.status,
    disabledReason: e.disabledReason ?? null,
    eventScope: e.eventScope ?? 'shop',
    createdBy: e.createdBy ?? null,
  };
}
