import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';
import { toLineItemResponse } from '../line-items/line-item.mapper';
import { OrderSummariesRepository } from '../order-data/order-summaries.repository';
import { OrderCountsDto, OrderDetailDto } from './dto/order-detail.dto';
import { OrderLookup } from './order-lookup';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** GET /orders/{id} and GET /orders/counts: one order, and the caller's orders by status. */
@Injectable()
export class OrderViewsService {
  constructor(
    private readonly lookup: OrderLookup,
    private readonly summaries: OrderSummariesRepository,
  ) {}

  async detail(scope: ShopScope, idParam: string): Promise<OrderDetailDto> {
    const { summary: s, lines } = await this.lookup.find(scope, idParam);
    const sales = lines.filter((l) => l.type !== 'refund');
    return {
      order: {
        _id: String(s.orderRef),
        orderId: s.orderId,
        orderName: s.orderName,
        orderNumber: s.orderNumber,
        createdAt: new Date(s.orderCreatedAt).toISOString(),
        financialStatus: s.financialStatus,
        fulfillmentStatus: s.fulfillmentStatus,
        cancelled: s.cancelled,
        shippingAddress: sales.find((l) => l.shippingAddress)?.shippingAddress ?? null,
        customer: { firstName: str(s.customer?.firstName), lastName: str(s.customer?.lastName) },
      },
      lineItems: sales.map(toLineItemResponse),
    };
  }

  counts(scope: ShopScope): Promise<OrderCountsDto> {
    return this.summaries.counts(scope);
  }
}
