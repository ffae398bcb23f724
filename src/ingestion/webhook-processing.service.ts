import { Injectable } from '@nestjs/common';
import { ShopScope } from '../common/tenancy';
import { OrderIngestionService } from '../line-items/order-ingestion.service';
import { PlatformFulfillmentsService } from '../line-items/platform-fulfillments.service';
import { ProductRepricing } from '../line-items/product-repricing';
import { OrdersRepository } from '../order-data/orders.repository';
import { ProductsService } from '../products/products.service';
import type { IncomingOrder } from '../line-items/incoming-order';
import { RefundsService } from '../refunds/refunds.service';
import { parseDeletedProductId, parseFulfillment, parseOrder, parseProduct } from './shopify-payloads';
import { WebhookTopicHandlers } from './webhook-topic-handlers';
import { parseRefund } from './shopify-refunds';

/**
 * What one store-platform webhook does to the shop's data (DESIGN §7): the queued work behind the
 * inbox. Idempotent: a replay, or an older version arriving late (`updated_at`), leaves the same
 * data. Throws to retry; a `PayloadError` can never succeed.
 */
@Injectable()
export class WebhookProcessingService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly orderIngestion: OrderIngestionService,
    private readonly platformFulfillments: PlatformFulfillmentsService,
    private readonly products: ProductsService,
    private readonly otherSenders: WebhookTopicHandlers,
    private readonly refunds: RefundsService,
    private readonly productRepricing: ProductRepricing,
  ) {}

  /**
   * `triggeredAt`: the delivery's `X-Shopify-Triggered-At`. It is not signed, so it only dates what
   * the signed body leaves undated, and never later than the receipt.
   */
  async apply(
    scope: ShopScope,
    topic: string,
    payload: unknown,
    receivedAt: Date,
    triggeredAt: Date | null = null,
  ): Promise<string> {
    switch (topic) {
      case 'orders/create':
      case 'orders/updated':
      case 'orders/paid':
      case 'orders/cancelled':
        return this.processOrder(scope, payload);
      case 'refunds/create':
        // Shopify's test notification sends a refund with no date: dated when the event was raised.
        return this.refunds.receive(scope, [
          parseRefund(
            payload,
            undefined,
            'refund',
            triggeredAt && triggeredAt <= receivedAt ? triggeredAt : receivedAt,
          ),
        ]);
      case 'products/create':
      case 'products/update': {
        const product = parseProduct(payload);
        const { outcome, typeChanged } = await this.products.ingestVersion(scope, product);
        // Its unpaid lines may fall under another product-type rule now (DESIGN §13).
        if (typeChanged) await this.productRepricing.typeChanged(scope, product.productId);
        return outcome;
      }
      case 'products/delete':
        await this.products.remove(scope, parseDeletedProductId(payload), receivedAt);
        return 'deleted';
      case 'fulfillments/create':
      case 'fulfillments/update': {
        const n = await this.platformFulfillments.apply(scope, parseFulfillment(payload));
        return `fulfilled ${n} line item(s)`;
      }
      default: {
        // A payment provider's delivery (`stripe/…`, `paypal/…`), verified by its own feature.
        const handler = this.otherSenders.find(topic);
        return handler ? handler(scope, topic, payload) : 'ignored';
      }
    }
  }

  /**
   * A new order takes the insert-only path (no reads of existing data); a known order is replaced
   * unless the stored version is newer, then its line items are recomputed. Its `refunds[]` are
   * read whatever the version (each refund line item counts once), and a new order gets the refunds
   * that arrived before it.
   */
  private async processOrder(scope: ShopScope, payload: unknown): Promise<string> {
    const order = parseOrder(payload);
    const { result, refundsWaiting } = await this.ingestOrder(scope, order, payload);
    if (order.refunds.length > 0) return `${result}; ${await this.refunds.receive(scope, order.refunds)}`;
    if (result === 'created' && refundsWaiting) {
      const { rows } = await this.refunds.applyForOrder(scope, order.orderId);
      if (rows > 0) return `${result}; ${rows} waiting refund row(s) recorded`;
    }
    return result;
  }

  private async ingestOrder(
    scope: ShopScope,
    order: IncomingOrder,
    payload: unknown,
  ): Promise<{ result: string; refundsWaiting: boolean }> {
    const version = {
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      orderName: order.orderName,
      platformCreatedAt: order.createdAt,
      platformUpdatedAt: order.updatedAt,
      raw: payload as Record<string, unknown>,
    };
    if (await this.orders.insertNew(scope, version)) {
      const { refundsWaiting } = await this.orderIngestion.ingestOrder(scope, order, true);
      return { result: 'created', refundsWaiting };
    }
    if (!(await this.orders.replaceUnlessNewer(scope, version)))
      return { result: 'stale', refundsWaiting: false };
    await this.orderIngestion.ingestOrder(scope, order, false);
    return { result: 'updated', refundsWaiting: false };
  }
}
