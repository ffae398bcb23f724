import type { CallerOrder } from '../../orders/order-lookup';
import type { ShopLegalDto } from '../../shops/dto/legal.dto';
import type { PackingSlipSnapshot, ShipTo } from './packing-slip.types';

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The store platform's shipping address (Shopify's fields) as the slip prints it. */
export function shipToOf(a: Record<string, unknown> | null | undefined): ShipTo | null {
  if (!a) return null;
  const name = text(a.name) ?? ([text(a.first_name), text(a.last_name)].filter(Boolean).join(' ') || null);
  return {
    name,
    company: text(a.company),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    province: text(a.province),
    zip: text(a.zip),
    country: text(a.country),
    phone: text(a.phone),
  };
}

/** What the slip shows of the vendor's part of the order: its sale lines (units ordered), no figure. */
export function packingSlipOf(
  order: CallerOrder,
  legal: Pick<ShopLegalDto, 'legalName' | 'address'>,
  vendorId: string,
  now: Date,
): PackingSlipSnapshot {
  const sales = order.lines.filter((l) => l.type !== 'refund');
  return {
    issuedAt: now.toISOString(),
    sender: { name: legal.legalName ?? sales[0]?.vendorName ?? '', address: legal.address },
    vendor: { id: vendorId, name: sales[0]?.vendorName ?? '' },
    order: {
      id: String(order.orderId),
      name: order.summary.orderName || null,
      createdAt: new Date(order.summary.orderCreatedAt).toISOString(),
    },
    shipTo: shipToOf(sales.find((l) => l.shippingAddress)?.shippingAddress),
    lines: sales.map((l) => ({ sku: l.sku ?? null, title: l.name, quantity: l.quantity })),
  };
}
