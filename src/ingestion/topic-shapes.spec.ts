import { topicShapeProblem } from './topic-shapes';

const body = (v: unknown) => Buffer.from(JSON.stringify(v));
const order = { id: 1, line_items: [{ id: 2 }], financial_status: 'paid', cancelled_at: null };
const product = { id: 7, title: 'Shirt', variants: [{ id: 8, sku: 'S-1' }] };
const refund = { id: 3, order_id: 1, refund_line_items: [{ id: 4, line_item_id: 2, quantity: 1 }] };
const fulfillment = { id: 5, order_id: 1, status: 'success', line_items: [{ id: 2 }] };

describe('topicShapeProblem', () => {
  it.each([
    ['orders/create', order],
    ['orders/updated', order],
    ['orders/paid', order],
    ['orders/cancelled', { ...order, cancelled_at: '2025-06-01T10:00:00Z' }],
    ['products/create', product],
    ['products/update', product],
    ['products/delete', { id: 7 }],
    ['refunds/create', refund],
    ['fulfillments/create', fulfillment],
    ['fulfillments/update', fulfillment],
    ['customers/create', { anything: true }],
  ])('accepts a %s body of its own kind', (topic, payload) => {
    expect(topicShapeProblem(topic, body(payload))).toBeNull();
  });

  it.each([
    ['products/delete', product, /products\/delete.*carries `title`/],
    ['products/delete', {}, /has no `id`/],
    ['orders/cancelled', order, /has no `cancelled_at`/],
    ['orders/cancelled', { ...order, cancelled_at: '' }, /cancelled_at/],
    ['refunds/create', { ...refund, refund_line_items: undefined }, /refund_line_items/],
    ['refunds/create', { ...refund, refund_line_items: 'x' }, /refund_line_items/],
    ['refunds/create', order, /refund_line_items/],
    ['orders/create', product, /line_items/],
    ['orders/create', refund, /line_items|refund_line_items/],
    ['products/create', order, /title|line_items/],
    ['products/update', { id: 7 }, /neither `title` nor `variants`/],
    ['fulfillments/create', order, /order_id|financial_status/],
    ['fulfillments/update', product, /order_id|variants/],
  ])('refuses %s with a body of another kind', (topic, payload, reason) => {
    expect(topicShapeProblem(topic, body(payload))).toMatch(reason);
  });

  it('leaves unreadable bodies to processing (they fail there and change nothing)', () => {
    expect(topicShapeProblem('orders/create', Buffer.from('not json'))).toBeNull();
    expect(topicShapeProblem('orders/create', body([1, 2]))).toBeNull();
  });
});
