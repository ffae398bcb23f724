import { Types } from 'mongoose';
import { multiplyAmount, payoutState, round2, splitShipping } from '../common/money';
import { normaliseVendorName } from '../vendors/vendor-policy';
import type { IncomingOrder } from './incoming-order';
import { isPayoutRow, LineItem, LineItemFulfillment } from './line-item.schema';
import { price, PricingContext } from './line-item-pricing';
import type { GuardedSet } from './line-item-views';
import { recutRefundRows } from './refund-rows';

/*
 * The pure steps of the order-ingestion job (OrderIngestionService.ingestOrder lists them all, in
 * order): price the order's sale rows, then recut its refund rows from them. No reads, no writes:
 * what they return is written by the job's next steps.
 */

/** What the job reads off the clock (OrderIngestionService.stamp), in the order it always read it. */
export interface Stamps {
  /** The platform's fulfillments by line item id (dated now where the platform left no date). */
  fulfillments: Map<number, LineItemFulfillment>;
  /** The `order.received` pending marker of the order's first rows; null when it has rows. */
  receivedAt: Date | null;
}

/** The sale rows priced: what to insert, what to write and under which guard, and the result. */
export interface PricedRows {
  inserts: Array<Partial<LineItem>>;
  writes: GuardedSet[];
  /** Frozen (paid out) rows: the order's context only. */
  contextOnly: GuardedSet[];
  /** The order's sale rows as they will read, by line item id. */
  final: Map<number, LineItem | Partial<LineItem>>;
  vendorChanged: boolean;
}

/** The refund rows recut from their sale rows: their guarded writes and how they will read. */
export interface RecutRefunds {
  writes: GuardedSet[];
  view: Array<LineItem | Partial<LineItem>>;
  vendorChanged: boolean;
}

/**
 * Every figure of the order's sale rows from the order (DESIGN §6), except `deduction`, which only
 * a person writes. Frozen (paid out) rows get only the order context; rows already ingested from a
 * newer version of the order are left alone. `stored`: the order's sale rows (none when new).
 */
export function priceRows(
  order: IncomingOrder,
  stored: LineItem[],
  ctx: PricingContext,
  stamps: Stamps,
): PricedRows {
  const storedById = new Map(stored.map((l) => [l.lineItemId, l]));
  const shares = splitShipping(
    order.shippingTotal,
    order.lines.map((l) => multiplyAmount(l.price, l.quantity)),
  );
  const context = {
    orderName: order.orderName,
    orderNumber: order.orderNumber,
    orderCreatedAt: order.createdAt,
    financialStatus: order.financialStatus,
    cancelled: order.cancelled,
    shippingAddress: order.shippingAddress,
    billingAddress: order.billingAddress,
  };
  const out: PricedRows = {
    inserts: [],
    writes: [],
    contextOnly: [],
    final: new Map<number, LineItem | Partial<LineItem>>(stored.map((l) => [l.lineItemId, l])),
    vendorChanged: false,
  };

  order.lines.forEach((line, i) => {
    const prev = storedById.get(line.lineItemId);
    if (prev && (prev.frozen || (prev.sourceUpdatedAt && prev.sourceUpdatedAt > order.updatedAt))) {
      if (prev.frozen) out.contextOnly.push({ id: prev._id, guard: {}, set: context });
      return;
    }
    const vendorName = normaliseVendorName(line.vendor);
    const { vendor, figures } = price(
      ctx,
      {
        vendorName,
        currentVendorId: prev && prev.vendorName === vendorName ? prev.vendorId : null,
        sku: line.sku,
        productId: line.productId,
        orderCreatedAt: order.createdAt,
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
    const fromPlatform = stamps.fulfillments.get(line.lineItemId) ?? null;
    const platformSaysFulfilled = line.fulfilled || fromPlatform !== null;
    if (!prev) {
      Object.assign(fields, {
        fulfillmentStatus: platformSaysFulfilled ? 'fulfilled' : 'unfulfilled',
        fulfillment: fromPlatform,
      });
      out.inserts.push({
        ...fields,
        _id: new Types.ObjectId(),
        type: 'sale',
        orderId: order.orderId,
        lineItemId: line.lineItemId,
        ...(stamps.receivedAt ? { eventPendingAt: stamps.receivedAt } : {}),
      });
      out.final.set(line.lineItemId, fields);
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
    if (String(prev.vendorId) !== String(fields.vendorId)) out.vendorChanged = true;
    out.writes.push({ id: prev._id, guard, set: fields });
    out.final.set(line.lineItemId, { ...prev, ...fields });
  });
  return out;
}

/**
 * A refund row is cut from its sale line (DESIGN §6): while unsettled it follows the line's current
 * figures and vendor (a line priced before its vendor existed, an order edit). `final`: the sale
 * rows as priced; `refundRows`: the order's refund rows as stored.
 */
export function recutRefunds(
  final: Map<number, LineItem | Partial<LineItem>>,
  refundRows: LineItem[],
): RecutRefunds {
  const writes: GuardedSet[] = [];
  const recut = new Map<string, Record<string, unknown>>();
  let vendorChanged = false;
  for (const [lineItemId, sale] of final) {
    const own = refundRows.filter((r) => r.lineItemId === lineItemId);
    if (own.length === 0) continue;
    for (const { row, set } of recutRefundRows(sale as LineItem, own)) {
      writes.push({ id: row._id, guard: { frozen: false, batchId: null, paid: row.paid }, set });
      recut.set(String(row._id), set);
      if (String(row.vendorId) !== String(set.vendorId)) vendorChanged = true;
    }
  }
  const view = refundRows.map((r) => ({ ...r, ...(recut.get(String(r._id)) ?? {}) }));
  return { writes, view, vendorChanged };
}
