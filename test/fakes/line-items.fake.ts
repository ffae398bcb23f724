import { Types } from 'mongoose';
import { payoutState, sumAmounts } from '../../src/common/money';
import type { ShopScope } from '../../src/common/tenancy';
import { isPayoutRow, LineItem } from '../../src/line-items/line-item.schema';
import type { BatchPaidLineItem, GuardedSet, PayableLineItem } from '../../src/line-items/line-item-views';
import type { LineItemsRepository } from '../../src/line-items/line-items.repository';
import type { PayoutRowsRepository } from '../../src/line-items/payout-rows.repository';
import type { OrderSummaryRefresher } from '../../src/line-items/order-summary.refresher';
import type { VendorTally } from '../../src/line-items/vendor-tally.service';
import { inScope, matchesAll, SHOP } from './fake';

/** A stored line item with the schema's defaults; `overrides` set what a test cares about. */
export function lineItem(overrides: Partial<LineItem> & { orderId: number; lineItemId: number }): LineItem {
  const line: LineItem = {
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(SHOP.shopId),
    type: 'sale',
    refundId: null,
    refundLineItemId: null,
    refundedQuantity: null,
    vendorId: null,
    vendorName: null,
    orderName: `#${overrides.orderId}`,
    orderNumber: overrides.orderId,
    orderCreatedAt: new Date('2026-11-01T10:00:00.000Z'),
    financialStatus: 'paid',
    cancelled: false,
    shippingAddress: null,
    billingAddress: null,
    name: 'Item',
    variantTitle: null,
    sku: null,
    productId: null,
    variantId: null,
    price: 0,
    quantity: 1,
    sourceUpdatedAt: null,
    sales: 0,
    discount: 0,
    salesAfterDiscount: 0,
    tax: 0,
    shipping: 0,
    commission: 0,
    commissionPlan: null,
    commissionRule: null,
    costOfItem: 0,
    taxOnCommissions: 0,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    payout: 0,
    paid: 0,
    balance: 0,
    payoutStatus: 'unpaid',
    frozen: false,
    batchId: null,
    batchPaidAmount: null,
    paidAt: null,
    inPayouts: false,
    fulfillmentStatus: 'unfulfilled',
    fulfillment: null,
    fulfillmentLock: null,
    fulfillmentLockedAt: null,
    createdAt: new Date('2026-11-01T10:00:00.000Z'),
    updatedAt: new Date('2026-11-01T10:00:00.000Z'),
    ...overrides,
  };
  return { ...line, inPayouts: isPayoutRow(line) };
}

type FiguresUsed =
  | 'findForOrders'
  | 'findByPairs'
  | 'findBySkuPage'
  | 'countBySku'
  | 'findByIds'
  | 'frozenIds'
  | 'applyGuardedSets';
type PayoutRowsUsed =
  'listPayable' | 'vendorsWithPayable' | 'claimForBatch' | 'payClaimed' | 'releaseBatch' | 'heldByBatch';

/**
 * The line_items collection in memory, with the repositories' write guards: one store behind the
 * figures' (LineItemsRepository) and the payout engine's (PayoutRowsRepository) views of it.
 */
export class FakeLineItemsRepository
  implements Pick<LineItemsRepository, FiguresUsed>, Pick<PayoutRowsRepository, PayoutRowsUsed>
{
  readonly docs: LineItem[] = [];
  /** Every guarded-set batch written, in order. */
  readonly guardedWrites: GuardedSet[][] = [];
  /** Called with the items of each payClaimed call after its write: throw from it to crash a run there. */
  afterMarkPaid: (items: BatchPaidLineItem[]) => void = () => undefined;
  /** Called with the items of each claimForBatch call after its write. */
  afterClaim: (items: PayableLineItem[]) => void = () => undefined;
  /** Called before each applyGuardedSets: lets a test change a line "concurrently". */
  beforeGuardedWrite: () => void = () => undefined;

  add(...items: LineItem[]): LineItem[] {
    this.docs.push(...items);
    return items;
  }

  get(id: Types.ObjectId): LineItem {
    return this.docs.find((d) => d._id.equals(id))!;
  }

  async findForOrders(scope: ShopScope, orderIds: number[]): Promise<LineItem[]> {
    return this.rows(scope)
      .filter((d) => orderIds.includes(d.orderId))
      .sort((a, b) => a.orderId - b.orderId || a.lineItemId - b.lineItemId);
  }

  async findByPairs(
    scope: ShopScope,
    pairs: Array<{ orderId: number; lineItemId: number }>,
  ): Promise<LineItem[]> {
    const wanted = new Set(pairs.map((p) => `${p.orderId}:${p.lineItemId}`));
    return this.rows(scope).filter((d) => wanted.has(`${d.orderId}:${d.lineItemId}`));
  }

  async findBySkuPage(
    scope: ShopScope,
    sku: string,
    after: { orderCreatedAt: Date; _id: Types.ObjectId } | null,
    limit: number,
  ): Promise<LineItem[]> {
    const key = (d: { orderCreatedAt: Date; _id: Types.ObjectId }) =>
      `${d.orderCreatedAt.toISOString()}|${String(d._id)}`;
    return this.rows(scope)
      .filter((d) => d.sku === sku && (!after || key(d) > key(after)))
      .sort((a, b) => key(a).localeCompare(key(b)))
      .slice(0, limit);
  }

  async countBySku(scope: ShopScope, sku: string): Promise<number> {
    return this.rows(scope).filter((d) => d.sku === sku).length;
  }

  async findByIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<LineItem[]> {
    return this.rows(scope).filter((d) => ids.some((id) => id.equals(d._id)));
  }

  async frozenIds(scope: ShopScope, ids: Types.ObjectId[]): Promise<Set<string>> {
    return new Set((await this.findByIds(scope, ids)).filter((d) => d.frozen).map((d) => String(d._id)));
  }

  async applyGuardedSets(scope: ShopScope, writes: GuardedSet[]): Promise<number> {
    this.beforeGuardedWrite();
    this.guardedWrites.push(writes);
    let matched = 0;
    for (const w of writes) {
      const doc = this.live(scope).find((d) => d._id.equals(w.id) && matchesAll(d, w.guard));
      if (!doc) continue;
      Object.assign(doc, w.set);
      matched++;
    }
    return matched;
  }

  async listPayable(scope: ShopScope, vendorId: Types.ObjectId, cutoff: Date): Promise<PayableLineItem[]> {
    return this.payable(scope, cutoff)
      .filter((d) => String(d.vendorId) === String(vendorId))
      .sort((a, b) => String(a._id).localeCompare(String(b._id)))
      .map((d) => ({ _id: d._id, paid: d.paid, balance: d.balance }));
  }

  async vendorsWithPayable(scope: ShopScope, cutoff: Date): Promise<Types.ObjectId[]> {
    const ids = new Map<string, Types.ObjectId>();
    for (const d of this.payable(scope, cutoff)) if (d.vendorId) ids.set(String(d.vendorId), d.vendorId);
    return [...ids.values()];
  }

  async claimForBatch(scope: ShopScope, items: PayableLineItem[], batchId: string): Promise<void> {
    for (const li of items) {
      const doc = this.live(scope).find(
        (d) =>
          d._id.equals(li._id) &&
          matchesAll(d, { batchId: null, frozen: false, paid: li.paid, balance: li.balance }),
      );
      if (doc) Object.assign(doc, { batchId, batchPaidAmount: li.balance });
    }
    this.afterClaim(items);
  }

  async payClaimed(scope: ShopScope, held: BatchPaidLineItem[], batchId: string, at: Date): Promise<void> {
    const todo = held.filter((li) => !li.frozen);
    for (const li of todo) {
      const doc = this.live(scope).find(
        (d) => d._id.equals(li._id) && matchesAll(d, { batchId, frozen: false, paid: li.paid }),
      );
      if (!doc) continue;
      const paid = sumAmounts([li.paid, li.batchPaidAmount ?? 0]);
      Object.assign(doc, {
        paid,
        ...payoutState(doc.payout, paid),
        frozen: true,
        paidAt: at,
        inPayouts: true,
      });
    }
    this.afterMarkPaid(todo);
  }

  async releaseBatch(scope: ShopScope, batchId: string): Promise<void> {
    for (const d of this.live(scope)) {
      if (d.batchId === batchId && !d.frozen) Object.assign(d, { batchId: null, batchPaidAmount: null });
    }
  }

  async heldByBatch(scope: ShopScope, batchId: string): Promise<BatchPaidLineItem[]> {
    return this.rows(scope)
      .filter((d) => d.batchId === batchId)
      .map((d) => ({
        _id: d._id,
        orderId: d.orderId,
        batchPaidAmount: d.batchPaidAmount,
        type: d.type,
        frozen: d.frozen,
        paid: d.paid,
        payout: d.payout,
      }));
  }

  /** Copies, as `.lean()` reads are: a caller's changes never reach the store. */
  private rows(scope: ShopScope): LineItem[] {
    return this.live(scope).map((d) => ({ ...d }));
  }

  private live(scope: ShopScope): LineItem[] {
    return inScope(scope, this.docs);
  }

  private payable(scope: ShopScope, cutoff: Date): LineItem[] {
    return this.live(scope).filter(
      (d) => d.inPayouts && d.orderCreatedAt <= cutoff && d.balance !== 0 && d.batchId === null,
    );
  }
}

/** Records which orders' summaries were refreshed. */
export class FakeSummaries implements Pick<OrderSummaryRefresher, 'refresh'> {
  readonly refreshed: number[][] = [];

  async refresh(_scope: ShopScope, orderIds: number[], _opts?: { vendorsChanged?: boolean }): Promise<void> {
    this.refreshed.push([...orderIds]);
  }
}

/** The tally at its boundary: records which vendors each write asked it to count (no sums here). */
export class FakeVendorTally implements Pick<VendorTally, 'settle'> {
  readonly settled: string[][] = [];

  settle(_scope: ShopScope, vendorIds: Iterable<unknown>): Promise<boolean> {
    this.settled.push([...vendorIds].filter((v) => v != null).map(String));
    return Promise.resolve(true);
  }
}
