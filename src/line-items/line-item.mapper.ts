import { profitOf } from '../common/money';
import { LineItemDto } from './dto/line-item.dto';
import type { LineItem } from './line-item.schema';

const iso = (d: Date | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

export function toLineItemResponse(l: LineItem): LineItemDto {
  return {
    _id: String(l._id),
    type: l.type ?? 'sale',
    refundId: l.refundId ?? null,
    refundLineItemId: l.refundLineItemId ?? null,
    refundedQuantity: l.refundedQuantity ?? null,
    lineItemId: l.lineItemId,
    orderId: l.orderId,
    orderName: l.orderName,
    orderNumber: l.orderNumber,
    orderCreatedAt: iso(l.orderCreatedAt)!,
    vendorId: l.vendorId ? String(l.vendorId) : null,
    vendorName: l.vendorName ?? null,
    name: l.name,
    variantTitle: l.variantTitle ?? null,
    sku: l.sku ?? null,
    productId: l.productId == null ? null : String(l.productId),
    variantId: l.variantId == null ? null : String(l.variantId),
    price: l.price,
    quantity: l.quantity,
    sales: l.sales,
    discount: l.discount,
    salesAfterDiscount: l.salesAfterDiscount,
    tax: l.tax,
    shipping: l.shipping,
    commission: l.commission,
    commissionPlan: l.commissionPlan ?? null,
    commissionRule: l.commissionRule
      ? { level: l.commissionRule.level, id: String(l.commissionRule.id) }
      : null,
    costOfItem: l.costOfItem,
    taxOnCommissions: l.taxOnCommissions,
    tcs: l.tcs,
    totalGlobalDeductions: l.totalGlobalDeductions,
    deduction: l.deduction,
    payout: l.payout,
    profit: profitOf(l.salesAfterDiscount, l.costOfItem),
    paid: l.paid,
    balance: l.balance,
    payoutStatus: l.payoutStatus,
    frozen: l.frozen,
    financialStatus: l.financialStatus,
    cancelled: l.cancelled,
    fulfillmentStatus: l.fulfillmentStatus,
    fulfillment: l.fulfillment
      ? {
          status: l.fulfillment.status,
          trackingCompany: l.fulfillment.trackingCompany ?? null,
          trackingNumber: l.fulfillment.trackingNumber ?? null,
          trackingUrl: l.fulfillment.trackingUrl ?? null,
          shipmentStatus: l.fulfillment.shipmentStatus ?? null,
          createdAt: iso(l.fulfillment.createdAt),
          deliveredAt: iso(l.fulfillment.deliveredAt),
        }
      : null,
    createdAt: iso(l.createdAt)!,
    updatedAt: iso(l.updatedAt)!,
  };
}
