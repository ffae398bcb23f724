import { FulfillmentRowDto } from './dto/fulfillment.dto';
import type { FulfillmentRowSource } from '../line-items/line-item-views';

export function toFulfillmentRow(li: FulfillmentRowSource): FulfillmentRowDto {
  const f = li.fulfillment;
  return {
    _id: String(li._id),
    orderNumber: li.orderNumber,
    orderName: li.orderName,
    date: li.orderCreatedAt.toISOString(),
    vendorId: li.vendorId ? String(li.vendorId) : '',
    vendorName: li.vendorName ?? '',
    lineItemName: li.name,
    lineItemVariant: li.variantTitle ?? null,
    lineItemSku: li.sku ?? null,
    fulfillmentStatus: li.fulfillmentStatus,
    fulfillment: {
      status: f?.status ?? null,
      trackingCompany: f?.trackingCompany ?? null,
      trackingNumber: f?.trackingNumber ?? null,
      trackingUrl: f?.trackingUrl ?? null,
      shipmentStatus: f?.shipmentStatus ?? null,
      createdAt: f?.createdAt ? new Date(f.createdAt).toISOString() : null,
    },
    shippingAddress: li.shippingAddress ?? null,
    billingAddress: li.billingAddress ?? null,
  };
}
