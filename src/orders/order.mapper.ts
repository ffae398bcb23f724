import { CustomerSummaryDto, OrderListItemDto } from './dto/order.dto';
import type { OrderSummary } from '../order-data/order-summary.schema';
import type { Order } from '../order-data/order.schema';

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function toOrderListItem(s: OrderSummary): OrderListItemDto {
  return {
    _id: String(s.orderRef),
    orderId: s.orderId,
    orderName: s.orderName,
    orderNumber: s.orderNumber,
    createdAt: iso(s.orderCreatedAt)!,
    totalQuantity: s.totalQuantity,
    lineItemCount: s.lineItemCount,
    totalSales: s.totalSales,
    totalNetSales: s.totalNetSales,
    totalCostOfItem: s.totalCostOfItem,
    totalProfit: s.totalProfit,
    totalCommission: s.totalCommission,
    totalPayout: s.totalPayout,
    status: s.status,
    fulfillmentStatus: s.fulfillmentStatus,
    vendorPayoutStatus: s.vendorPayoutStatus,
    financialStatus: s.financialStatus,
    shipDate: iso(s.shipDate),
    deliveryDate: iso(s.deliveryDate),
    notes: s.notes ?? null,
    customer: (s.customer as CustomerSummaryDto | null) ?? null,
  };
}

/** The raw order: the platform's JSON plus our identifiers (which win over same-named platform keys). */
export function toRawOrder(o: Order): Record<string, unknown> {
  return {
    ...o.raw,
    _id: String(o._id),
    orderId: o.orderId,
    orderNumber: o.orderNumber,
    shopId: String(o.shopId),
  };
}
