/**
 * Does a signed body fit the topic it arrived under? The platform's HMAC covers the body only, not
 * the `X-Shopify-Topic` header, so a captured signed body can be re-posted under another topic (a
 * product's body under `products/delete` would delete it for good). Each topic's payload has a
 * shape no other topic's has; a body without its topic's shape is refused before it is stored.
 *
 * These are discriminators, not full validation: a body of the right kind with bad values still
 * reaches processing, fails there and stays inspectable (PayloadError).
 */
type Json = Record<string, unknown>;
type Rule = (body: Json) => string | null;

const has = (b: Json, key: string) => Object.prototype.hasOwnProperty.call(b, key);
const none =
  (...keys: string[]): Rule =>
  (b) => {
    const found = keys.find((k) => has(b, k));
    return found ? `carries \`${found}\`, which this topic's payload never has` : null;
  };
const all =
  (...rules: Rule[]): Rule =>
  (b) =>
    rules.reduce<string | null>((problem, rule) => problem ?? rule(b), null);
const present =
  (key: string): Rule =>
  (b) =>
    has(b, key) ? null : `has no \`${key}\``;
const arrayAt =
  (key: string): Rule =>
  (b) =>
    Array.isArray(b[key]) ? null : `has no \`${key}\` array`;

/** An order (REST Admin order JSON): line items, and none of the other kinds' markers. */
const order = all(present('line_items'), none('refund_line_items', 'variants', 'order_id'));
const product = all(
  (b) => (has(b, 'title') || has(b, 'variants') ? null : 'has neither `title` nor `variants`'),
  none('line_items', 'refund_line_items', 'order_id', 'financial_status'),
);
const fulfillment = all(present('order_id'), none('variants', 'refund_line_items', 'financial_status'));

export const TOPIC_SHAPES: Readonly<Record<string, Rule>> = {
  'orders/create': order,
  'orders/updated': order,
  'orders/paid': order,
  'orders/cancelled': all(order, (b) =>
    typeof b.cancelled_at === 'string' && b.cancelled_at.trim() !== '' ? null : 'has no `cancelled_at`',
  ),
  'products/create': product,
  'products/update': product,
  // The platform sends only `{"id": …}` for a deleted product.
  'products/delete': (b) => {
    const extra = Object.keys(b).filter((k) => k !== 'id');
    if (!has(b, 'id')) return 'has no `id`';
    return extra.length ? `carries \`${extra[0]}\`; a products/delete payload is only {"id": …}` : null;
  },
  'refunds/create': all(arrayAt('refund_line_items'), present('order_id'), none('line_items', 'variants')),
  'fulfillments/create': fulfillment,
  'fulfillments/update': fulfillment,
};

/**
 * Null when the body may be accepted under `topic`, else why not. Topics without a rule pass, and
 * so does a body that is not a JSON object (it fails in processing as unreadable, changing nothing).
 */
export function topicShapeProblem(topic: string, rawBody: Buffer): string | null {
  const rule = TOPIC_SHAPES[topic];
  if (!rule) return null;
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const problem = rule(body as Json);
  return problem ? `The body does not fit the topic ${topic}: it ${problem}` : null;
}
