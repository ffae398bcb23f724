import { Injectable, Optional } from '@nestjs/common';
import { crashPoint } from '../common/faults/crash-point';
import { EventSink } from '../event-port/event-sink';
import { orderReceivedEvent } from './order-events';
import { Clock } from '../common/clock/clock';
import type { ShopScope } from '../common/tenancy';
import { normaliseVendorName } from '../vendors/vendor-policy';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import type { IncomingOrder } from './incoming-order';
import { LineItem, LineItemFulfillment } from './line-item.schema';
import { LineItemPricing, PricingContext } from './line-item-pricing';
import { LineItemsRepository } from './line-items.repository';
import { PricedRows, priceRows, RecutRefunds, recutRefunds, Stamps } from './order-ingestion.steps';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { toFulfillment } from './platform-fulfillments.service';
import { VendorTally } from './vendor-tally.service';

/*
 * The order-ingestion job, as its steps (DESIGN §7). Before this file:
 *  1. verify the delivery — IngestionService.receive (POST /webhooks/shopify: signature, topic, body
 *     shape), which hands it to
 *  2. store it — WebhookInbox.accept: WebhookDeliveriesRepository.insert, then queued by its id;
 *  3. claim it — IngestionProcessor.handle → WebhookInbox.process: WebhookDeliveriesRepository.claim;
 *  4. its topic — WebhookProcessingService.apply → processOrder → ingestOrder: the order's version
 *     (OrdersRepository.insertNew, else replaceUnlessNewer; a stale version stops here).
 * Here, OrderIngestionService.ingestOrder, one call per step:
 *  5. readRows  6. loadPricingInputs  7. stamp (the clock)  8. priceRows  9. recutRefunds
 *  10. writeRows  11. writeSummaries  12. settleTally  13. emitReceived (`order.received`).
 * Steps 8 and 9 are pure (order-ingestion.steps.ts); the others are this class's, below in order.
 * After it: the payload's refunds (RefundsService.receive) or those waiting for a new order
 * (RefundsService.applyForOrder), then WebhookInbox.process marks the delivery processed.
 */

/** The order's rows as stored: sale rows (repriced) apart from refund rows (recut, never rewritten). */
interface CurrentRows {
  rows: LineItem[];
  sales: LineItem[];
  refunds: LineItem[];
}

/** Store-platform orders (create, updated, paid, cancelled) into calculated line items and order summaries. */
@Injectable()
export class OrderIngestionService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly pricing: LineItemPricing,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly tally: VendorTally,
    @Optional() private readonly events?: EventSink,
  ) {}

  /**
   * Writes an order's line items: every figure is computed from the order (DESIGN §6), except
   * `deduction`, which only a person writes. Frozen (paid out) line items keep their figures and get
   * only the order context; lines already ingested from a newer version of the order are left
   * alone. Ends with the order's summaries, written once.
   */
  async ingestOrder(
    scope: ShopScope,
    order: IncomingOrder,
    isNewOrder: boolean,
  ): Promise<{ refundsWaiting: boolean }> {
    const current = await this.readRows(scope, order, isNewOrder);
    const { ctx, endpoints } = await this.loadPricingInputs(scope, order, current.sales);
    const stamps = this.stamp(order, current.sales);
    const priced = priceRows(order, current.sales, ctx, stamps);
    const recut = recutRefunds(priced.final, current.refunds);
    await this.writeRows(scope, order, priced, recut);
    await this.writeSummaries(scope, order, isNewOrder, priced, recut);
    this.settleTally(scope, current, priced, recut);
    await this.emitReceived(scope, order, priced, stamps, endpoints);
    return { refundsWaiting: ctx.refundsWaiting };
  }

  /** The order's rows as stored (none for a new order: the insert-only path reads nothing). */
  private async readRows(scope: ShopScope, order: IncomingOrder, isNewOrder: boolean): Promise<CurrentRows> {
    const rows = isNewOrder ? [] : await this.lineItems.findForOrders(scope, [order.orderId]);
    // Refund rows are never rewritten by an order payload (DESIGN §6); they count in its summaries.
    return {
      rows,
      refunds: rows.filter((l) => l.type === 'refund'),
      sales: rows.filter((l) => l.type !== 'refund'),
    };
  }

  /** The shop's settings, the lines' vendors and SKU records, and the endpoints of `order.received`. */
  private async loadPricingInputs(
    scope: ShopScope,
    order: IncomingOrder,
    stored: LineItem[],
  ): Promise<{ ctx: PricingContext; endpoints: Array<Record<string, unknown>> | undefined }> {
    // An order's first rows will be reported (`order.received`): the endpoints that event goes to
    // are read with the pricing records, in the same command (one round trip less per new order).
    const { ctx, endpoints } = await this.pricing.loadWith(
      scope,
      {
        vendorNames: order.lines.map((l) => normaliseVendorName(l.vendor)),
        vendorIds: stored.map((l) => l.vendorId),
        skus: order.lines.map((l) => l.sku),
        productIds: order.lines.map((l) => l.productId),
      },
      { endpoints: stored.length === 0 && (this.events?.recording ?? false) },
    );
    return { ctx, endpoints: endpoints ?? undefined };
  }

  /** What this ingestion reads off the clock, in the order the job always read it. */
  private stamp(order: IncomingOrder, stored: LineItem[]): Stamps {
    const fulfillments = new Map<number, LineItemFulfillment>();
    for (const f of order.fulfillments) {
      for (const id of f.lineItemIds) fulfillments.set(id, toFulfillment(f, null, this.clock.now()));
    }
    // The order's first sale rows carry the pending marker of its `order.received` (DESIGN §11) in
    // their insert: a crash before the event is recorded leaves it for the events sweeper. "First"
    // by the rows, not the order version: a redelivery after a crash between the order's version
    // and its rows inserts them too.
    return { fulfillments, receivedAt: stored.length === 0 ? this.clock.now() : null };
  }

  /** Inserts, then the guarded writes (sale rows, then refund rows), then the context-only writes. */
  private async writeRows(
    scope: ShopScope,
    order: IncomingOrder,
    priced: PricedRows,
    recut: RecutRefunds,
  ): Promise<void> {
    const writes = [...priced.writes, ...recut.writes];
    if (priced.inserts.length > 0 && !(await this.lineItems.insertNew(scope, priced.inserts))) {
      throw new ConcurrentLineItemChange(`line items of order ${order.orderId} were created concurrently`);
    }
    if ((await this.lineItems.applyGuardedSets(scope, writes)) < writes.length) {
      throw new ConcurrentLineItemChange(`line items of order ${order.orderId} changed while ingesting`);
    }
    await this.lineItems.applyGuardedSets(scope, priced.contextOnly);
  }

  /** The order's summaries from its rows as they now read (sale and refund rows). */
  private async writeSummaries(
    scope: ShopScope,
    order: IncomingOrder,
    isNewOrder: boolean,
    priced: PricedRows,
    recut: RecutRefunds,
  ): Promise<void> {
    const docs = this.summaries.docsFor(
      scope,
      {
        orderId: order.orderId,
        orderName: order.orderName,
        orderNumber: order.orderNumber,
        orderCreatedAt: order.createdAt,
        financialStatus: order.financialStatus,
        cancelled: order.cancelled,
        notes: order.notes,
        customer: order.customer,
      },
      [...priced.final.values(), ...recut.view] as LineItem[],
    );
    if (isNewOrder) await this.summaries.writeNew(scope, order.orderId, docs);
    else
      await this.summaries.write(scope, [order.orderId], docs, priced.vendorChanged || recut.vendorChanged);
  }

  /**
   * The vendors' balance sums (the vendors the order's lines had and have now), counted by the
   * vendor's next tally run: this job does not wait for it.
   */
  private settleTally(scope: ShopScope, current: CurrentRows, priced: PricedRows, recut: RecutRefunds): void {
    this.tally.settleSoon(scope, [
      ...current.rows.map((r) => r.vendorId),
      ...priced.inserts.map((i) => i.vendorId),
      ...[...priced.writes, ...recut.writes].map((w) => w.set.vendorId),
    ]);
  }

  /**
   * The order's first ingestion tells the systems around us (DESIGN §11); the sink never throws.
   * The rows' marker is left for the events sweeper, which clears the markers of every order whose
   * event it finds stored in one write (LineItemEventsFinisher): clearing it here was one more
   * single-row write per order on the ingestion path.
   */
  private async emitReceived(
    scope: ShopScope,
    order: IncomingOrder,
    priced: PricedRows,
    stamps: Stamps,
    endpoints: Array<Record<string, unknown>> | undefined,
  ): Promise<void> {
    if (!stamps.receivedAt || priced.inserts.length === 0) return;
    crashPoint('after-change:order.received');
    await this.events?.emit(scope, [orderReceivedEvent(order, priced.inserts, stamps.receivedAt)], endpoints);
  }
}
