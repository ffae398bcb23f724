import { sumAmounts } from '../common/money';
import type { IncomingFulfillment, IncomingLine, IncomingOrder } from '../line-items/incoming-order';
import type { IncomingProduct } from '../products/incoming-product';
import {
  PayloadError,
  obj,
  objOrNull,
  arr,
  id,
  idString,
  idStringOrNull,
  str,
  strOrNull,
  decimal,
  int,
  date,
  dateOrNull,
  idOrNull,
} from './payload-fields';
import { parseRefund } from './shopify-refunds';

/**
 * Normalises Shopify REST Admin webhook JSON (orders, products, fulfillments) into what the
 * features consume. Money stays as decimal strings. A payload that cannot be understood throws
 * `PayloadError` (payload-fields.ts): retrying would never help, so its job fails at once and stays inspectable.
 */
export function parseFulfillment(payload: unknown, orderIdFallback?: number): IncomingFulfillment {
  const f = obj(payload, 'fulfillment');
  const urls = arr(f.tracking_urls).filter((u): u is string => typeof u === 'string');
  return {
    fulfillmentId: String(id(f.id, 'fulfillment id')),
    orderId:
      f.order_id === undefined && orderIdFallback ? orderIdFallback : id(f.order_id, 'fulfillment order_id'),
    status: str(f.status, 'success'),
    trackingCompany: strOrNull(f.tracking_company),
    trackingNumber: strOrNull(f.tracking_number) ?? strOrNull(arr(f.tracking_numbers)[0]),
    trackingUrl: strOrNull(f.tracking_url) ?? strOrNull(urls[0]),
    shipmentStatus: strOrNull(f.shipment_status),
    createdAt: dateOrNull(f.created_at),
    updatedAt: dateOrNull(f.updated_at),
    lineItemIds: arr(f.line_items)
      .map((l) => idOrNull(objOrNull(l)?.id))
      .filter((n): n is number => n !== null),
  };
}

function parseLine(payload: unknown, i: number): IncomingLine {
  const l = obj(payload, `line_items[${i}]`);
  // The ordered quantity (order edits change it), never current_quantity: refunds are refund rows (DESIGN §6).
  const quantity = l.quantity;
  return {
    lineItemId: id(l.id, `line_items[${i}].id`),
    name: str(l.name) || str(l.title),
    variantTitle: strOrNull(l.variant_title),
    sku: strOrNull(l.sku),
    vendor: strOrNull(l.vendor),
    productId: idStringOrNull(l.product_id),
    variantId: idStringOrNull(l.variant_id),
    price: decimal(l.price, `line_items[${i}].price`),
    quantity: int(quantity, `line_items[${i}].quantity`),
    discounts: arr(l.discount_allocations).map((d, j) =>
      decimal(objOrNull(d)?.amount, `line_items[${i}].discount_allocations[${j}].amount`),
    ),
    taxes: arr(l.tax_lines).map((t, j) =>
      decimal(objOrNull(t)?.price, `line_items[${i}].tax_lines[${j}].price`),
    ),
    fulfilled: l.fulfillment_status === 'fulfilled',
  };
}

function customerOf(v: unknown): Record<string, unknown> | null {
  const c = objOrNull(v);
  if (!c) return null;
  return {
    id: idOrNull(c.id),
    email: strOrNull(c.email),
    firstName: strOrNull(c.first_name),
    lastName: strOrNull(c.last_name),
  };
}

export function parseOrder(payload: unknown): IncomingOrder {
  const o = obj(payload, 'order');
  const orderId = id(o.id, 'order id');
  const createdAt = date(o.created_at, 'created_at');
  const orderNumber = typeof o.order_number === 'number' ? o.order_number : 0;
  const lines = o.line_items;
  if (!Array.isArray(lines)) throw new PayloadError('line_items must be an array');
  return {
    orderId,
    orderNumber,
    orderName: str(o.name) || `#${orderNumber}`,
    createdAt,
    updatedAt: date(o.updated_at, 'updated_at', createdAt),
    financialStatus: str(o.financial_status, 'pending') || 'pending',
    cancelled: !!o.cancelled_at,
    notes: strOrNull(o.note),
    customer: customerOf(o.customer),
    shippingAddress: objOrNull(o.shipping_address),
    billingAddress: objOrNull(o.billing_address),
    shippingTotal: String(
      sumAmounts(
        arr(o.shipping_lines).map((s, i) => decimal(objOrNull(s)?.price, `shipping_lines[${i}].price`, '0')),
      ),
    ),
    lines: lines.map(parseLine),
    fulfillments: arr(o.fulfillments).map((f) => parseFulfillment(f, orderId)),
    refunds: arr(o.refunds).map((r, i) => parseRefund(r, orderId, `refunds[${i}]`)),
  };
}

export function parseProduct(payload: unknown): IncomingProduct {
  const p = obj(payload, 'product');
  // Shopify's own sample products/create sends `created_at: null`: the version date stands in.
  const createdAt = date(p.created_at, 'created_at', dateOrNull(p.updated_at) ?? undefined);
  const tags = Array.isArray(p.tags)
    ? p.tags.map((t) => str(t).trim())
    : str(p.tags)
        .split(',')
        .map((t) => t.trim());
  return {
    productId: idString(p.id, 'product id'),
    title: str(p.title),
    handle: str(p.handle),
    productType: str(p.product_type),
    vendor: str(p.vendor),
    status: str(p.status, 'active') || 'active',
    tags: tags.filter((t) => t !== ''),
    variants: arr(p.variants).map((raw, i) => {
      const v = obj(raw, `variants[${i}]`);
      return {
        id: idStringOrNull(v.id),
        title: strOrNull(v.title),
        sku: strOrNull(v.sku),
        price: Number(decimal(v.price, `variants[${i}].price`, '0')),
        inventoryQuantity: typeof v.inventory_quantity === 'number' ? v.inventory_quantity : 0,
        requiresShipping: v.requires_shipping !== false,
      };
    }),
    images: arr(p.images).map((raw) => {
      const im = objOrNull(raw) ?? {};
      return {
        id: idStringOrNull(im.id),
        src: strOrNull(im.src),
        alt: strOrNull(im.alt),
        position: typeof im.position === 'number' ? im.position : null,
      };
    }),
    createdAt,
    updatedAt: date(p.updated_at, 'updated_at', createdAt),
  };
}

/** products/delete carries only the id. */
export function parseDeletedProductId(payload: unknown): string {
  return idString(obj(payload, 'product').id, 'product id');
}
