import { Injectable, Optional } from '@nestjs/common';
import { Types } from 'mongoose';
import { crashPoint } from '../common/faults/crash-point';
import { EventSink } from '../event-port/event-sink';
import { orderReceivedEvent } from './order-events';
import { Clock } from '../common/clock/clock';
import { multiplyAmount, payoutState, round2, splitShipping } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import { normaliseVendorName } from '../vendors/vendor-policy';
import { ConcurrentLineItemChange } from './concurrent-line-item-change';
import type { IncomingOrder } from './incoming-order';
import { isPayoutRow, LineItem, LineItemFulfillment } from './line-item.schema';
import { LineItemPricing, price } from './line-item-pricing';
import type { GuardedSet } from './line-item-views';
import { LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { toFulfillment } from './platform-fulfillments.service';
import { recutRefundRows } from './refund-rows';
import { VendorTally } from './vendor-tally.service';

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
    const rows = isNewOrder ? [] : await this.lineItems.findForOrders(scope, [order.orderId]);
    // Refund rows are never rewritten by an order payload (DESIGN §6); they count in its summaries.
    const refundRows = rows.filter((l) => l.type === 'refund');
    const stored = rows.filter((l) => l.type !== 'refund');
    const storedById = new Map(stored.map((l) => [l.lineItemId, l]));
    // An order's first rows will be reported (`order.received`): the endpoints that event goes to
    // are read with the pricing records, in the same command (one round trip less per new order).
    const { ctx, endpoints } = await this.pricing.loadWith(
      scope,
      {
        vendorNames: order.lines.map((l) => normaliseVendorName(l.vendor)),
        vendorIds: stored.map((l) => l.vendorId),
        skus: order.lines.map((l) => l.sku),
      },
      { endpoints: stored.length === 0 && (this.events?.recording ?? false) },
    );
    const shares = splitShipping(
      order.shippingTotal,
      order.lines.map((l) => multiplyAmount(l.price, l.quantity)),
    );
    const platformFulfillment = new Map<number, LineItemFulfillment>();
    for (const f of order.fulfillments) {
      for (const id of f.lineItemIds) platformFulfillment.set(id, toFulfillment(f, null, this.clock.now()));
    }
    const context = {
      orderName: order.orderName,
      orderNumber: order.orderNumber,
      orderCreatedAt: order.createdAt,
      financialStatus: order.financialStatus,
      cancelled: order.cancelled,
      shippingAddress: order.shippingAddress,
      billingAddress: order.billingAddress,
    };

    const inserts: Array<Partial<LineItem>> = [];
    const writes: GuardedSet[] = [];
    const contextOnly: GuardedSet[] = [];
    const final = new Map<number, LineItem | Partial<LineItem>>(stored.map((l) => [l.lineItemId, l]));
    let vendorChanged = false;
    // The order's first sale rows carry the pending marker of its `order.received` (DESIGN §11) in
    // their insert: a crash before the event is recorded leaves it for the events sweeper. "First"
    // by the rows, not the order version: a redelivery after a crash between the order's version
    // and its rows inserts them too.
    const receivedAt = stored.length === 0 ? this.clock.now() : null;

    order.lines.forEach((line, i) => {
      const prev = storedById.get(line.lineItemId);
      if (prev && (prev.frozen || (prev.sourceUpdatedAt && prev.sourceUpdatedAt > order.updatedAt))) {
        if (prev.frozen) contextOnly.push({ id: prev._id, guard: {}, set: context });
        return;
      }
      const vendorName = normaliseVendorName(line.vendor);
      const { vendor, figures } = price(
        ctx,
        {
          vendorName,
          currentVendorId: prev && prev.vendorName === vendorName ? prev.vendorId : null,
          sku: line.sku,
        },
        {
          price: line.price,
          quantity: line.quantity,
          discounts: line.discounts,
          taxes: line.taxes,
          shipping: shares[i],
          deduction: prev?.deduction ?? 0,
        },
      );
      const fields: Partial<LineItem> = {
        ...context,
        vendorId: vendor?._id ?? null,
        vendorName,
        name: line.name,
        variantTitle: line.variantTitle,
        sku: line.sku,
        productId: line.productId,
        variantId: line.variantId,
        price: round2(line.price),
        quantity: line.quantity,
        sourceUpdatedAt: order.updatedAt,
        ...figures,
        ...payoutState(figures.payout, prev?.paid ?? 0),
        // not frozen, so not in a batch (batchId null)
        inPayouts: isPayoutRow({
          vendorId: vendor?._id,
          financialStatus: order.financialStatus,
          type: 'sale',
        }),
      };
      const fromPlatform = platformFulfillment.get(line.lineItemId) ?? null;
      const platformSaysFulfilled = line.fulfilled || fromPlatform !== null;
      if (!prev) {
        Object.assign(fields, {
          fulfillmentStatus: platformSaysFulfilled ? 'fulfilled' : 'unfulfilled',
          fulfillment: fromPlatform,
        });
        inserts.push({
          ...fields,
          _id: new Types.ObjectId(),
          type: 'sale',
          orderId: order.orderId,
          lineItemId: line.lineItemId,
          ...(receivedAt ? { eventPendingAt: receivedAt } : {}),
        });
        final.set(line.lineItemId, fields);
        return;
      }
      // Guard on what others may write meanwhile: the payout engine (paid, frozen, a batch's claim:
      // batchId), a person (deduction). A line a running batch holds is retried once it is settled.
      const guard: Record<string, unknown> = {
        frozen: false,
        batchId: null,
        paid: prev.paid,
        deduction: prev.deduction,
      };
      if (prev.fulfillmentStatus !== 'fulfilled' && platformSaysFulfilled) {
        Object.assign(fields, {
          fulfillmentStatus: 'fulfilled',
          fulfillment: prev.fulfillment ?? fromPlatform,
        });
        guard.fulfillmentStatus = prev.fulfillmentStatus;
      }
      if (String(prev.vendorId) !== String(fields.vendorId)) vendorChanged = true;
      writes.push({ id: prev._id, guard, set: fields });
      final.set(line.lineItemId, { ...prev, ...fields });
    });

    // A refund row is cut from its sale line (DESIGN §6): while unsettled it follows the line's
    // current figures and vendor (a line priced before its vendor existed, an order edit).
    const recut = new Map<string, Record<string, unknown>>();
    for (const [lineItemId, sale] of final) {
      const own = refundRows.filter((r) => r.lineItemId === lineItemId);
      if (own.length === 0) continue;
      for (const { row, set } of recutRefundRows(sale as LineItem, own)) {
        writes.push({ id: row._id, guard: { frozen: false, batchId: null, paid: row.paid }, set });
        recut.set(String(row._id), set);
        if (String(row.vendorId) !== String(set.vendorId)) vendorChanged = true;
      }
    }
    const refundView = refundRows.map((r) => ({ ...r, ...(recut.get(String(r._id)) ?? {}) }));
    if (inserts.length > 0 && !(await this.lineItems.insertNew(scope, inserts))) {
      throw new ConcurrentLineItemChange(`line items of order ${order.orderId} were created concurrently`);
    }
    if ((await this.lineItems.applyGuardedSets(scope, writes)) < writes.length) {
      throw new ConcurrentLineItemChange(`line items of order ${order.orderId} changed while ingesting`);
    }
    await this.lineItems.applyGuardedSets(scope, contextOnly);

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
      [...final.values(), ...refundView] as LineItem[],
    );
    if (isNewOrder) await this.summaries.writeNew(scope, order.orderId, docs);
    else await this.summaries.write(scope, [order.orderId], docs, vendorChanged);
    // The vendors' balance sums (the vendors the order's lines had and have now), counted by the
    // vendor's next tally run: this job does not wait for it.
    this.tally.settleSoon(scope, [
      ...rows.map((r) => r.vendorId),
      ...inserts.map((i) => i.vendorId),
      ...writes.map((w) => w.set.vendorId),
    ]);
    if (receivedAt && inserts.length > 0)
      await this.received(scope, order, inserts, receivedAt, endpoints ?? undefined);
    return { refundsWaiting: ctx.refundsWaiting };
  }

  /**
   * The order's first ingestion tells the systems around us (DESIGN §11); the sink never throws.
   * The rows' marker is left for the events sweeper, which clears the markers of every order whose
   * event it finds stored in one write (LineItemEventsFinisher): clearing it here was one more
   * single-row write per order on the ingestion path.
   */
  private async received(
    scope: ShopScope,
    order: IncomingOrder,
    inserts: Array<Partial<LineItem>>,
    at: Date,
    endpoints: Array<Record<string, unknown>> | undefined,
  ): Promise<void> {
    crashPoint('after-change:order.received');
    await this.events?.emit(scope, [orderReceivedEvent(order, inserts, at)], endpoints);
  }
}
