import type { TagObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * Every tag an operation may carry, in the order a new shop works through the API: sign in, set
 * the shop up, add vendors and their users and commissions, then the store data that arrives and
 * what is done with it, down to payouts; operations last. Swagger UI and Redoc list tags in this
 * order. A tag missing here fails the document build (src/docs/swagger.ts).
 */
export const TAGS: TagObject[] = [
  {
    name: 'Authentication',
    description:
      'Exchange a credential for a token, and renew tokens. v1: shop API key + domain → shop token (24 h). ' +
      'V2: merchant key (`mk_live_…`) → merchant token (14 days); vendor portal user → vendor token (24 h). ' +
      'Every token travels in the `x-access-token` header, without a `Bearer` prefix.',
  },
  {
    name: 'Shop',
    description:
      'The shop’s own settings (tax on commissions, TCS, global deductions, what is paid to vendors) ' +
      'and the vendor profile fields it collects.',
  },
  {
    name: 'Merchant keys',
    description:
      'Keys for the V2 API, managed with a shop token: create (the key is shown once), list, rotate ' +
      '(the old key keeps working for 24 h) and revoke (its tokens are refused at once).',
  },
  {
    name: 'Vendors',
    description:
      'The sellers of the marketplace, with their commission (percentage or flat), address and profile. ' +
      'A line item belongs to the vendor whose name equals its `vendor` field.',
  },
  {
    name: 'Users',
    description:
      'Vendor portal users: they sign in at `POST /v2/vendor/authenticate` and see their own orders.',
  },
  {
    name: 'Vendor API keys',
    description:
      'Keys (`vk_live_…`) a vendor’s programs exchange for a vendor token at `POST /authenticate`: each carries ' +
      'one or more scopes, is shown once and stored hashed; at most 25 live keys per vendor. The shop (v1, V2) ' +
      'or a merchant token manages any vendor’s keys, a portal user its own vendor’s (`/settings/api-keys`).',
  },
  {
    name: 'Commissions',
    description:
      'Per-SKU commission and cost-of-goods records (they override the vendor’s commission), and the ' +
      'commission of every vendor.',
  },
  {
    name: 'Products',
    description: 'Products as the store platform sent them (webhooks), with their vendor.',
  },
  {
    name: 'Orders',
    description:
      'Orders as the store platform sent them, their calculated line items, and (V2) order lists with ' +
      'totals per order or per vendor.',
  },
  {
    name: 'Line items',
    description:
      'Write a calculated figure of a line item by hand, or recalculate line items (by SKU) with the ' +
      'current settings, vendor and SKU records.',
  },
  {
    name: 'Fulfillments',
    description:
      'Fulfil line items with tracking (recorded locally or sent to the store platform) and list them; ' +
      'the store platform connection of the shop.',
  },
  {
    name: 'Payouts',
    description:
      'What each vendor is owed line by line, and payout batches: everything payable up to a cut-off ' +
      'date, marked paid by one idempotent, resumable run.',
  },
  {
    name: 'Documents',
    description:
      'Documents issued when a payout batch completes (commission invoices, credit notes, self-billed ' +
      'invoices, payout statements): numbered per shop and series without gaps, frozen snapshots that never ' +
      'change, their PDFs rendered from the snapshot, and signed 48-hour links to an invoice or packing slip ' +
      'that open without a token.',
  },
  {
    name: 'Dashboards',
    description:
      "A period's figures summed from the calculated line items: the vendor's sales, refunds and earnings " +
      "(compared with the period before), and the shop's orders, revenue, commission, payouts and top vendors.",
  },
  {
    name: 'Payout adjustments',
    description:
      'Manual credits and debits for a vendor, paid in the first payout batch whose cut-off is on or ' +
      'after their date; PAID adjustments cannot be changed.',
  },
  {
    name: 'Webhooks',
    description:
      'The store platform’s (Shopify-format) webhooks, authenticated by their HMAC signature, and the ' +
      'inbox of deliveries: list, inspect and retry failed ones.',
  },
  {
    name: 'Events',
    description:
      'Outbound events (Standard Webhooks): register endpoints, receive signed deliveries of the event ' +
      'catalogue (vendor.*, user.*, order.received, line_items.*, refund.recorded, fulfillment.*, ' +
      'payout_batch.*, payout_adjustment.*, balance.negative, ping), read the delivery log, retry, replay ' +
      'and rotate secrets; poll GET /v1/events. Each event type has its own schema (`…Event`).',
  },
  {
    name: 'Audit events',
    description: 'Who changed what and when: one event per credentialed write.',
  },
  {
    name: 'Operations',
    description:
      'Background jobs started by a request (recalculations) and the service’s liveness and readiness.',
  },
];

/** The prefix of the vendor surface's tags: Swagger UI lists them together, after the operator's. */
export const VENDOR_TAG_PREFIX = 'Vendor · ';

/**
 * The vendor surface's tags (DESIGN §12), one per area a vendor works in, in the order of its day.
 * An operation only a vendor token may call is listed under `Vendor · <its tag>`.
 */
export const VENDOR_TAGS: TagObject[] = [
  {
    name: `${VENDOR_TAG_PREFIX}Authentication`,
    description:
      'Vendor tokens: a portal user signs in with email and password, a vendor’s own program with a ' +
      '`vk_live_` vendor API key (scopes); manage the vendor’s API keys.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Orders`,
    description:
      'The vendor’s own orders: list with filters, one order with its lines, counts, and the timeline with notes.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Fulfillments`,
    description:
      'Fulfil the vendor’s lines with tracking (on the store platform), change or cancel it, follow ' +
      'shipments with tracking events; lists, counts and fulfilment statistics.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Products`,
    description: 'The vendor’s products as the store platform sent them, with counts by status.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Payouts`,
    description:
      'The vendor’s money: what it earned line by line, its balance, payouts summary and transfers, ' +
      'statements and payout methods.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Dashboard`,
    description:
      'The vendor’s sales, refunds, earnings and fulfilment rate over a period, against the period before.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Profile`,
    description: 'The vendor’s own profile and the payout method its money is sent to.',
  },
  {
    name: `${VENDOR_TAG_PREFIX}Documents`,
    description: 'The vendor’s commission invoices and credit notes.',
  },
];

/** The tags `used` by a document's operations, in workflow order; throws on a tag not listed above. */
export function orderedTags(used: Set<string>): TagObject[] {
  const all = [...TAGS, ...VENDOR_TAGS];
  const unknown = [...used].filter((name) => !all.some((t) => t.name === name));
  if (unknown.length)
    throw new Error(`OpenAPI tags without a description in src/docs/tags.ts: ${unknown.join(', ')}`);
  return all.filter((t) => used.has(t.name));
}
