import { parseJsonLossless, quoteUnsafeIntegers } from './lossless-json';
import { PayloadError } from './payload-fields';
import { parseOrder } from './shopify-payloads';
import { parseRefund } from './shopify-refunds';

// Shopify's REST refund resource (refunds/create), trimmed: ids as the platform sends them (numbers).
const REFUND_JSON = `{
  "id": 929361464,
  "order_id": 450789469,
  "created_at": "2026-11-20T10:00:00-05:00",
  "processed_at": "2026-11-20T10:05:00-05:00",
  "note": "wrong size",
  "restock": true,
  "transactions": [{ "id": 1, "kind": "refund", "status": "success", "amount": "41.94" }],
  "order_adjustments": [{ "id": 2, "kind": "shipping_refund", "amount": "-5.00", "reason": "Shipping refund" }],
  "refund_line_items": [
    { "id": 820982911946154508, "line_item_id": 466157049, "quantity": 1, "restock_type": "return",
      "subtotal": "199.00", "total_tax": "3.98",
      "line_item": { "id": 466157049, "vendor": "acme", "sku": "IPOD2008GREEN", "price": "199.00" } }
  ]
}`;

describe('parseJsonLossless', () => {
  it('keeps every digit of an integer beyond 2^53 (as a string), leaves the rest alone', () => {
    const parsed = parseJsonLossless(
      '{"id":820982911946154508,"n":-9007199254740993,"safe":9007199254740991,"p":"19.99","f":1.5e3,"s":"820982911946154508 \\" x"}',
    ) as Record<string, unknown>;
    expect(parsed).toEqual({
      id: '820982911946154508',
      n: '-9007199254740993',
      safe: 9007199254740991,
      p: '19.99',
      f: 1500,
      s: '820982911946154508 " x',
    });
    expect(quoteUnsafeIntegers('{"a":[1,2,3]}')).toBe('{"a":[1,2,3]}');
  });
});

describe('parseRefund', () => {
  it('reads Shopify’s refund: ids exact, line items, order adjustments and transactions', () => {
    const r = parseRefund(parseJsonLossless(REFUND_JSON));
    expect(r).toMatchObject({
      refundId: '929361464',
      orderId: 450789469,
      note: 'wrong size',
      transactionsTotal: '41.94',
      orderAdjustments: [{ kind: 'shipping_refund', amount: '-5.00', reason: 'Shipping refund' }],
      lines: [
        {
          refundLineItemId: '820982911946154508',
          lineItemId: 466157049,
          quantity: 1,
          restockType: 'return',
          subtotal: '199.00',
          totalTax: '3.98',
        },
      ],
    });
    expect(r.processedAt?.toISOString()).toBe('2026-11-20T15:05:00.000Z');
  });

  it('a refund without dates (Shopify’s test notification) takes the date it is given, else is refused', () => {
    const undated = { ...(parseJsonLossless(REFUND_JSON) as object), created_at: null, processed_at: null };
    expect(() => parseRefund(undated)).toThrow('refund.created_at must be a date-time');
    const at = new Date('2026-11-20T15:00:00Z');
    const r = parseRefund(undated, undefined, 'refund', at);
    expect(r.createdAt).toEqual(at);
    expect(r.processedAt).toBeNull();
    // a processed_at alone dates it too; a date in the body always wins over the fallback
    const processed = parseRefund(
      { ...undated, processed_at: '2026-11-19T10:00:00Z' },
      undefined,
      'refund',
      at,
    );
    expect(processed.createdAt.toISOString()).toBe('2026-11-19T10:00:00.000Z');
    expect(parseRefund(parseJsonLossless(REFUND_JSON), undefined, 'refund', at).createdAt.toISOString()).toBe(
      '2026-11-20T15:00:00.000Z',
    );
  });

  it('an order payload’s refunds[] become the order’s refunds; an order id beyond 2^53 is refused clearly', () => {
    const order = {
      id: 450789469,
      created_at: '2026-11-19T10:00:00Z',
      line_items: [{ id: 466157049, price: '199.00', quantity: 2, current_quantity: 1 }],
      refunds: [JSON.parse(REFUND_JSON.replace('820982911946154508', '1'))],
    };
    const o = parseOrder(order);
    expect(o.lines[0].quantity).toBe(2);
    expect(o.refunds.map((r) => r.refundId)).toEqual(['929361464']);
    expect(() => parseOrder({ ...order, id: '9007199254740993' })).toThrow(/beyond 2\^53/);
    expect(() => parseRefund({ ...order.refunds[0], order_id: 1 }, 450789469)).toThrow(PayloadError);
  });
});
