import type { WebhookTopic } from '../ingestion/webhook-topics';

/** The demo shop of `seed:demo`: its vendors, catalogue, SKU overrides and generated orders. */

export const DEMO_VENDORS = [
  { vendorName: 'Acme Apparel', commissionType: 'percentage' as const, commissionAmount: 12 },
  { vendorName: 'Globex Gadgets', commissionType: 'flat' as const, commissionAmount: 1.5 },
  { vendorName: 'Initech Home', commissionType: 'percentage' as const, commissionAmount: 8 },
];

/** The demo catalogue: vendor (as the store sends it), product, variants (SKU, price). */
const CATALOG = [
  {
    vendor: 'Acme Apparel',
    title: 'Organic Tee',
    variants: [
      ['ACME-TEE-S', '24.00'],
      ['ACME-TEE-M', '24.00'],
      ['ACME-TEE-L', '26.00'],
    ],
  },
  {
    vendor: 'Acme Apparel',
    title: 'Rain Jacket',
    variants: [
      ['ACME-JKT-M', '89.90'],
      ['ACME-JKT-L', '89.90'],
    ],
  },
  { vendor: 'Globex Gadgets', title: 'USB-C Charger', variants: [['GLX-CHG-65', '39.99']] },
  { vendor: 'Globex Gadgets', title: 'Wireless Earbuds', variants: [['GLX-BUDS', '59.00']] },
  { vendor: 'Initech Home', title: 'Stoneware Mug', variants: [['INI-MUG', '14.50']] },
  { vendor: 'Initech Home', title: 'Linen Throw', variants: [['INI-THROW', '72.00']] },
  // A vendor with no account yet: its lines stay unassigned until one is created and recalculated.
  { vendor: 'Umbrella Crafts', title: 'Hand-carved Spoon', variants: [['UMB-SPOON', '18.00']] },
] as const;

/** SKU overrides: a commission (and cost of goods) that wins over the vendor's. */
export const DEMO_SKU_OVERRIDES = [
  { sku: 'ACME-JKT-M', commissionType: 'percentage' as const, commissionAmount: 15, costOfGoods: 41.5 },
  { sku: 'ACME-JKT-L', commissionType: 'percentage' as const, commissionAmount: 15, costOfGoods: 43 },
  { sku: 'GLX-BUDS', commissionType: 'flat' as const, commissionAmount: 4, costOfGoods: 22.75 },
  { sku: 'INI-MUG', commissionType: 'percentage' as const, commissionAmount: 0, costOfGoods: 5.2 },
];

/** Deterministic pseudo-random numbers, so a demo looks the same every time. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface Delivery {
  topic: WebhookTopic;
  payload: Record<string, unknown>;
}

export function productPayloads(
  base: number,
  now: Date,
): Array<{
  payload: Record<string, unknown>;
  variants: Array<{
    id: number;
    sku: string;
    price: string;
    productId: number;
    title: string;
    vendor: string;
  }>;
}> {
  return CATALOG.map((p, i) => {
    const id = base + 1 + i;
    const variants = p.variants.map(([sku, price], j) => ({
      id: id * 10 + j,
      sku,
      price,
      productId: id,
      title: p.title,
      vendor: p.vendor,
    }));
    return {
      variants,
      payload: {
        id,
        title: p.title,
        handle: p.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        product_type: p.vendor.split(' ')[1] ?? 'General',
        vendor: p.vendor,
        status: 'active',
        tags: 'demo, marketplace',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        variants: variants.map((v, j) => ({
          id: v.id,
          product_id: id,
          title: p.variants.length > 1 ? v.sku.split('-').pop() : 'Default Title',
          sku: v.sku,
          price: v.price,
          inventory_quantity: 20 + j * 5,
          requires_shipping: true,
          position: j + 1,
        })),
        images: [
          {
            id: id * 100,
            product_id: id,
            position: 1,
            src: `https://cdn.example.com/demo/${id}.jpg`,
            alt: p.title,
          },
        ],
      },
    };
  });
}

export function orderPayload(
  i: number,
  base: number,
  now: Date,
  variants: ReturnType<typeof productPayloads>[number]['variants'],
  rnd: () => number,
): Record<string, unknown> {
  const id = base + 1000 + i;
  const created = new Date(now.getTime() - Math.floor(rnd() * 30 * 24 * 3600 * 1000));
  const lineCount = 1 + Math.floor(rnd() * 3);
  const lines = Array.from({ length: lineCount }, (_, j) => {
    const v = variants[Math.floor(rnd() * variants.length)];
    const quantity = 1 + Math.floor(rnd() * 3);
    const discount = rnd() < 0.25 ? ((Number(v.price) * quantity) / 10).toFixed(2) : null;
    return {
      id: id * 10 + j,
      title: v.title,
      name: v.title,
      variant_title: null,
      sku: v.sku,
      vendor: v.vendor,
      product_id: v.productId,
      variant_id: v.id,
      quantity,
      price: v.price,
      discount_allocations: discount ? [{ amount: discount, discount_application_index: 0 }] : [],
      tax_lines: [
        { price: ((Number(v.price) * quantity * 8) / 100).toFixed(2), rate: 0.08, title: 'Sales tax' },
      ],
      fulfillment_status: null,
      requires_shipping: true,
    };
  });
  const financial = rnd() < 0.75 ? 'paid' : rnd() < 0.5 ? 'pending' : 'partially_paid';
  // Every 12th paid order had one unit of its first line refunded a day later (a refund row per
  // refund line item, DESIGN §6). Chosen by position, not by `rnd`, so the rest of the data set is
  // the same as before refunds existed.
  const refunded = financial === 'paid' && i % 12 === 5;
  const refundAt = new Date(Math.min(now.getTime(), created.getTime() + 24 * 3600 * 1000)).toISOString();
  const refunds = refunded
    ? [
        {
          id: id * 10 + 7,
          order_id: id,
          created_at: refundAt,
          processed_at: refundAt,
          note: 'Returned: wrong size',
          restock: true,
          transactions: [{ id: id * 10 + 8, kind: 'refund', status: 'success', amount: lines[0].price }],
          order_adjustments: [],
          refund_line_items: [
            {
              id: id * 10 + 9,
              line_item_id: lines[0].id,
              quantity: 1,
              restock_type: 'return',
              subtotal: lines[0].price,
            },
          ],
        },
      ]
    : [];
  return {
    id,
    name: `#${1000 + i + 1}`,
    order_number: 1000 + i + 1,
    email: `customer${i}@example.com`,
    currency: 'USD',
    created_at: created.toISOString(),
    updated_at: created.toISOString(),
    financial_status: refunded ? 'partially_refunded' : financial,
    cancelled_at: null,
    note: i % 7 === 0 ? 'Gift wrap, please' : null,
    customer: {
      id: base + 500000 + i,
      email: `customer${i}@example.com`,
      first_name: 'Demo',
      last_name: `Customer ${i}`,
    },
    shipping_address: {
      first_name: 'Demo',
      last_name: `Customer ${i}`,
      address1: `${i + 1} Market St`,
      city: 'Springfield',
      zip: '12345',
      country: 'United States',
    },
    billing_address: {
      first_name: 'Demo',
      last_name: `Customer ${i}`,
      address1: `${i + 1} Market St`,
      city: 'Springfield',
      country: 'United States',
    },
    shipping_lines: [{ title: 'Standard', code: 'STD', price: rnd() < 0.3 ? '0.00' : '6.90' }],
    line_items: lines,
    fulfillments: [],
    refunds,
  };
}
