import { parseDeletedProductId, parseFulfillment, parseOrder, parseProduct } from './shopify-payloads';
import { PayloadError } from './payload-fields';

const order = (over: Record<string, unknown> = {}) => ({
  id: 5549201834154,
  name: '#1042',
  order_number: 1042,
  created_at: '2026-11-21T10:00:00Z',
  updated_at: '2026-11-21T10:05:00Z',
  financial_status: 'paid',
  cancelled_at: null,
  note: 'gift',
  customer: { id: 7, email: 'j@example.com', first_name: 'J', last_name: 'D', phone: 'x' },
  shipping_lines: [{ price: '4.99' }, { price: '1.01' }],
  line_items: [
    {
      id: 1,
      name: 'Shirt - M',
      variant_title: 'M',
      sku: ' SKU-1 ',
      vendor: 'Acme',
      product_id: 9,
      variant_id: 10,
      price: '19.99',
      quantity: 2,
      discount_allocations: [{ amount: '1.00' }, { amount: '0.50' }],
      tax_lines: [{ price: '3.20' }],
      fulfillment_status: 'fulfilled',
    },
  ],
  fulfillments: [
    {
      id: 77,
      status: 'success',
      tracking_numbers: ['T1'],
      tracking_urls: ['https://t/1'],
      line_items: [{ id: 1 }],
    },
  ],
  ...over,
});

describe('parseOrder', () => {
  it('normalises a Shopify order', () => {
    const o = parseOrder(order());
    expect(o).toMatchObject({
      orderId: 5549201834154,
      orderNumber: 1042,
      orderName: '#1042',
      createdAt: new Date('2026-11-21T10:00:00Z'),
      updatedAt: new Date('2026-11-21T10:05:00Z'),
      financialStatus: 'paid',
      cancelled: false,
      notes: 'gift',
      customer: { id: 7, email: 'j@example.com', firstName: 'J', lastName: 'D' },
      shippingTotal: '6',
    });
    expect(o.lines[0]).toEqual({
      lineItemId: 1,
      name: 'Shirt - M',
      variantTitle: 'M',
      sku: 'SKU-1',
      vendor: 'Acme',
      productId: '9',
      variantId: '10',
      price: '19.99',
      quantity: 2,
      discounts: ['1.00', '0.50'],
      taxes: ['3.20'],
      fulfilled: true,
    });
    expect(o.fulfillments[0]).toMatchObject({
      fulfillmentId: '77',
      orderId: 5549201834154,
      trackingNumber: 'T1',
      trackingUrl: 'https://t/1',
      lineItemIds: [1],
    });
  });

  it('uses the ordered quantity, never current_quantity; updated_at defaults to created_at; cancelled_at marks cancelled', () => {
    const o = parseOrder(
      order({
        updated_at: undefined,
        cancelled_at: '2026-11-22T00:00:00Z',
        line_items: [{ id: 1, price: 5, quantity: 3, current_quantity: 1 }],
      }),
    );
    expect(o.updatedAt).toEqual(o.createdAt);
    expect(o.cancelled).toBe(true);
    // refunds are refund rows (DESIGN §6): the sale line keeps the 3 units ordered
    expect(o.lines[0]).toMatchObject({ quantity: 3, price: '5', sku: null, vendor: null, discounts: [] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing id', { id: undefined }, 'order id'],
    ['a string id', { id: 'abc' }, 'order id'],
    ['no line_items array', { line_items: 'x' }, 'line_items'],
    ['a bad date', { created_at: 'yesterday' }, 'created_at'],
    ['a bad price', { line_items: [{ id: 1, price: '1,00', quantity: 1 }] }, 'price'],
    ['a negative quantity', { line_items: [{ id: 1, price: '1.00', quantity: -1 }] }, 'quantity'],
    [
      'a bad discount',
      { line_items: [{ id: 1, price: '1', quantity: 1, discount_allocations: [{ amount: 'x' }] }] },
      'amount',
    ],
  ])('refuses %s with a PayloadError', (_name, over, msg) => {
    expect(() => parseOrder(order(over))).toThrow(PayloadError);
    expect(() => parseOrder(order(over))).toThrow(msg);
  });

  it('refuses a payload that is not an object', () => {
    expect(() => parseOrder([1])).toThrow(PayloadError);
    expect(() => parseOrder(null)).toThrow(PayloadError);
  });
});

describe('parseProduct / parseFulfillment', () => {
  it('normalises a product (tags as a comma list, digital variants)', () => {
    const p = parseProduct({
      id: 3,
      title: 'Tee',
      handle: 'tee',
      product_type: 'Shirts',
      vendor: 'Acme',
      status: 'draft',
      tags: 'a, b ,,c',
      created_at: '2026-01-01T00:00:00Z',
      variants: [{ id: 1, sku: 'S', price: '9.99', inventory_quantity: 4, requires_shipping: false }],
      images: [{ id: 2, src: 'https://x', alt: null, position: 1 }],
    });
    expect(p).toMatchObject({ productId: '3', status: 'draft', tags: ['a', 'b', 'c'] });
    expect(p.variants[0]).toEqual({
      id: '1',
      title: null,
      sku: 'S',
      price: 9.99,
      inventoryQuantity: 4,
      requiresShipping: false,
    });
    expect(p.updatedAt).toEqual(p.createdAt);
    expect(parseDeletedProductId({ id: 3 })).toBe('3');
    expect(() => parseDeletedProductId({})).toThrow(PayloadError);
  });

  it('normalises a fulfillment', () => {
    const f = parseFulfillment({
      id: 8,
      order_id: 9,
      status: 'success',
      tracking_company: 'UPS',
      tracking_number: '1Z',
      tracking_url: 'https://ups/1Z',
      shipment_status: 'in_transit',
      line_items: [{ id: 1 }, { id: 2 }],
    });
    expect(f).toMatchObject({
      fulfillmentId: '8',
      orderId: 9,
      shipmentStatus: 'in_transit',
      lineItemIds: [1, 2],
    });
    expect(() => parseFulfillment({ id: 8 })).toThrow(PayloadError);
  });
});
