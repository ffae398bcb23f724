import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { ValidationError } from '../common/errors';
import {
  calculateLineItem,
  costOfGoodsPerUnit,
  multiplyAmount,
  payoutState,
  recalculateLineItem,
  resolveCommissionRate,
  round2,
  splitShipping,
} from '../common/money';
import { ShopScope, toObjectId } from '../common/tenancy';
import { Queues } from '../queues/queues';
import {
  LineItemFieldsDto,
  LineItemUpdateErrorDto,
  LineItemUpdateItemDto,
  LineItemUpdateResultDto,
  LineItemUpdateStatus,
  UPDATABLE_FIELDS,
  UpdateLineItemsDto,
  UpdateLineItemsResponseDto,
} from './dto/line-items-update.dto';
import { IncomingFulfillment, IncomingOrder } from './incoming-order';
import { LineItem, LineItemFulfillment } from './line-item.schema';
import { assignVendor, LineItemPricing, normaliseVendorName } from './line-item-pricing';
import { GuardedSet, LineItemsRepository } from './line-items.repository';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { PricingInputsRepository } from './pricing-inputs.repository';

export const RecalculationJobs = {
  Recalculate: 'recalculate',
  RefreshSummaries: 'refresh-summaries',
} as const;
export interface RecalculateJobData {
  shopId: string;
  lineItemIds: string[];
}
export interface RefreshSummariesJobData {
  shopId: string;
  orderIds: number[];
}

/** Ids per recalculation job: big by-SKU updates fan out into several jobs. */
const RECALC_JOB_SIZE = 1000;
/** Up to this many orders, a by-SKU field write refreshes their summaries before answering. */
const SYNC_REFRESH_LIMIT = 200;

/** A concurrent writer changed a line item between our read and our write: the job retries from a fresh read. */
export class ConcurrentLineItemChange extends Error {}

const FROZEN_ERROR = 'Line item is frozen (paid out) and was skipped';
const NOT_FOUND_ERROR = 'Line item not found';

type FieldValues = Partial<Record<(typeof UPDATABLE_FIELDS)[number], number | string>>;

@Injectable()
export class LineItemsService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly pricing: LineItemPricing,
    private readonly pricingInputs: PricingInputsRepository,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    @InjectQueue(Queues.Recalculation) private readonly recalcQueue: Queue,
  ) {}

  // ---------------------------------------------------------------- reads

  listForOrder(scope: ShopScope, orderId: number): Promise<LineItem[]> {
    return this.lineItems.findForOrders(scope, [orderId]);
  }

  // ---------------------------------------------------------------- ingestion

  /**
   * Writes an order's line items from a store-platform order (create, update, paid, cancelled):
   * every figure is computed from the order (DESIGN §6), except `deduction`, which only a person
   * writes. Frozen (paid out) line items keep their figures and get only the order context; lines
   * already ingested from a newer version of the order are left alone. Ends with the order's
   * summaries, written once.
   */
  async ingestOrder(scope: ShopScope, order: IncomingOrder, isNewOrder: boolean): Promise<void> {
    const stored = isNewOrder ? [] : await this.lineItems.findForOrders(scope, [order.orderId]);
    const storedById = new Map(stored.map((l) => [l.lineItemId, l]));
    const ctx = await this.pricing.load(scope, {
      vendorNames: order.lines.map((l) => normaliseVendorName(l.vendor)),
      vendorIds: stored.map((l) => l.vendorId),
      skus: order.lines.map((l) => l.sku),
    });
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

    order.lines.forEach((line, i) => {
      const prev = storedById.get(line.lineItemId);
      if (prev && (prev.frozen || (prev.sourceUpdatedAt && prev.sourceUpdatedAt > order.updatedAt))) {
        if (prev.frozen) contextOnly.push({ id: prev._id, guard: {}, set: context });
        return;
      }
      const vendorName = normaliseVendorName(line.vendor);
      const vendor = assignVendor(
        ctx,
        vendorName,
        prev && prev.vendorName === vendorName ? prev.vendorId : null,
      );
      const sku = line.sku ? (ctx.skus.get(line.sku) ?? null) : null;
      const figures = calculateLineItem(
        {
          price: line.price,
          quantity: line.quantity,
          discounts: line.discounts,
          taxes: line.taxes,
          shipping: shares[i],
          deduction: prev?.deduction ?? 0,
          rate: resolveCommissionRate(vendor, sku),
          costOfGoods: sku?.costOfGoods ?? null,
        },
        ctx.settings,
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
      };
      const fromPlatform = platformFulfillment.get(line.lineItemId) ?? null;
      const platformSaysFulfilled = line.fulfilled || fromPlatform !== null;
      if (!prev) {
        Object.assign(fields, {
          fulfillmentStatus: platformSaysFulfilled ? 'fulfilled' : 'unfulfilled',
          fulfillment: fromPlatform,
        });
        inserts.push({ ...fields, orderId: order.orderId, lineItemId: line.lineItemId });
        final.set(line.lineItemId, fields);
        return;
      }
      // Guard on what others may write meanwhile: the payout engine (paid, frozen), a person (deduction).
      const guard: Record<string, unknown> = { frozen: false, paid: prev.paid, deduction: prev.deduction };
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
      [...final.values()] as LineItem[],
    );
    if (isNewOrder) await this.summaries.writeNew(scope, order.orderId, docs);
    else await this.summaries.write(scope, [order.orderId], docs, vendorChanged);
  }

  /**
   * fulfillments/create|update: records the platform fulfillment (tracking, shipment status) on the
   * line items it covers. The order must have been ingested first; until then the job retries.
   */
  async applyPlatformFulfillment(scope: ShopScope, f: IncomingFulfillment): Promise<number> {
    const lines = await this.lineItems.findForOrders(scope, [f.orderId]);
    if (lines.length === 0) {
      throw new ConcurrentLineItemChange(`order ${f.orderId} has not been ingested yet`);
    }
    const covered = new Set(f.lineItemIds);
    const targets = covered.size > 0 ? lines.filter((l) => covered.has(l.lineItemId)) : lines;
    const fulfilled = f.status === 'success';
    const now = this.clock.now();
    await this.lineItems.applyGuardedSets(
      scope,
      targets.map((l) => ({
        id: l._id,
        guard: {},
        set: {
          fulfillment: toFulfillment(f, l.fulfillment, now),
          fulfillmentStatus: fulfilled ? 'fulfilled' : 'unfulfilled',
        },
      })),
    );
    await this.summaries.refresh(scope, [f.orderId]);
    return targets.length;
  }

  // ---------------------------------------------------------------- POST /v1/lineitems/update

  async update(scope: ShopScope, body: UpdateLineItemsDto): Promise<UpdateLineItemsResponseDto> {
    assertValidUpdate(body);
    return body.items
      ? this.updateItems(scope, body.items)
      : this.updateBySku(scope, body.bySku!.trim(), presentFields(body.fields), body.recalculate === true);
  }

  private async updateItems(
    scope: ShopScope,
    items: LineItemUpdateItemDto[],
  ): Promise<UpdateLineItemsResponseDto> {
    const found = await this.lineItems.findByPairs(scope, items);
    const byKey = new Map(found.map((l) => [pairKey(l), l]));
    const plans = new Map<string, { line: LineItem; fields: FieldValues; recalc: boolean }>();
    const entries: Array<{
      item: LineItemUpdateItemDto;
      line?: LineItem;
      fields: FieldValues;
      recalc: boolean;
    }> = [];
    for (const item of items) {
      const fields = presentFields(item.fields);
      const recalc = item.recalculate === true;
      const line = byKey.get(pairKey(item));
      entries.push({ item, line, fields, recalc });
      if (!line || line.frozen) continue;
      const plan = plans.get(pairKey(line)) ?? { line, fields: {}, recalc: false };
      Object.assign(plan.fields, fields);
      plan.recalc ||= recalc;
      plans.set(pairKey(line), plan);
    }

    const frozenNow = await this.writeFields(
      scope,
      [...plans.values()]
        .filter((p) => Object.keys(p.fields).length > 0)
        .map((p) => ({ line: p.line, fields: p.fields })),
    );

    const results: LineItemUpdateResultDto[] = [];
    const errors: LineItemUpdateErrorDto[] = [];
    const costs = new Map<string, number>();
    let updated = 0;
    let queued = 0;
    for (const e of entries) {
      const ids = { lineItemId: e.item.lineItemId, orderId: e.item.orderId };
      if (!e.line) {
        errors.push({ ...ids, error: NOT_FOUND_ERROR });
        continue;
      }
      if (e.line.frozen || frozenNow.has(String(e.line._id))) {
        errors.push({ ...ids, error: FROZEN_ERROR });
        continue;
      }
      const hasFields = Object.keys(e.fields).length > 0;
      if (hasFields) updated++;
      if (e.recalc) queued++;
      results.push({ ...ids, status: statusOf(hasFields, e.recalc) });
      if (e.fields.costOfItem !== undefined && e.line.sku) {
        const perUnit = costOfGoodsPerUnit(e.fields.costOfItem, e.line.quantity);
        if (perUnit !== null) costs.set(e.line.sku, perUnit);
      }
    }

    const written = [...plans.values()].filter(
      (p) => Object.keys(p.fields).length > 0 && !frozenNow.has(String(p.line._id)),
    );
    await this.pricingInputs.setCostOfGoods(
      scope,
      [...costs.entries()].map(([sku, costOfGoods]) => ({ sku, costOfGoods })),
    );
    const toRecalc = [...plans.values()].filter((p) => p.recalc && !frozenNow.has(String(p.line._id)));
    await this.enqueueRecalculation(
      scope,
      toRecalc.map((p) => p.line._id),
    );
    if (written.length > 0) {
      await this.summaries.refresh(
        scope,
        written.map((p) => p.line.orderId),
      );
    }
    return { success: errors.length === 0, updated, recalculateQueued: queued, results, errors };
  }

  private async updateBySku(
    scope: ShopScope,
    sku: string,
    fields: FieldValues,
    recalc: boolean,
  ): Promise<UpdateLineItemsResponseDto> {
    const matched = await this.lineItems.findBySku(scope, sku);
    const live = matched.filter((l) => !l.frozen);
    const hasFields = Object.keys(fields).length > 0;
    const frozenNow = hasFields
      ? await this.writeFields(
          scope,
          live.map((line) => ({ line, fields })),
        )
      : new Set<string>();
    const results: LineItemUpdateResultDto[] = [];
    const errors: LineItemUpdateErrorDto[] = [];
    const accepted: LineItem[] = [];
    for (const l of matched) {
      const ids = { lineItemId: l.lineItemId, orderId: l.orderId };
      if (l.frozen || frozenNow.has(String(l._id))) errors.push({ ...ids, error: FROZEN_ERROR });
      else {
        accepted.push(l);
        results.push({ ...ids, status: statusOf(hasFields, recalc) });
      }
    }
    if (fields.costOfItem !== undefined) {
      // The SKU's per-unit cost comes from the newest matched line (quantity 1 when none matched).
      const newest = accepted[accepted.length - 1];
      const perUnit = costOfGoodsPerUnit(fields.costOfItem, newest ? newest.quantity : 1);
      if (perUnit !== null) await this.pricingInputs.setCostOfGoods(scope, [{ sku, costOfGoods: perUnit }]);
    }
    if (recalc)
      await this.enqueueRecalculation(
        scope,
        accepted.map((l) => l._id),
      );
    else if (hasFields && accepted.length > 0) {
      const orderIds = [...new Set(accepted.map((l) => l.orderId))];
      if (orderIds.length <= SYNC_REFRESH_LIMIT) await this.summaries.refresh(scope, orderIds);
      else await this.enqueueSummaryRefresh(scope, orderIds);
    }
    return {
      success: errors.length === 0,
      updated: hasFields ? accepted.length : 0,
      recalculateQueued: recalc ? accepted.length : 0,
      results,
      errors,
    };
  }

  /**
   * Writes hand-given figures (rounded to 2 dp; a payout also moves balance and payoutStatus) to
   * line items that are not frozen, guarded against the payout engine. Returns the ids that turned
   * out frozen meanwhile (reported as skipped); other lost races are retried once from a fresh read.
   */
  private async writeFields(
    scope: ShopScope,
    plans: Array<{ line: LineItem; fields: FieldValues }>,
  ): Promise<Set<string>> {
    if (plans.length === 0) return new Set();
    const build = (line: LineItem, fields: FieldValues): GuardedSet => {
      const set: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(fields)) set[k] = k === 'commissionPlan' ? v : round2(v as number);
      if (set.payout !== undefined) Object.assign(set, payoutState(set.payout as number, line.paid));
      return { id: line._id, guard: { frozen: false, paid: line.paid }, set };
    };
    const matched = await this.lineItems.applyGuardedSets(
      scope,
      plans.map((p) => build(p.line, p.fields)),
    );
    if (matched === plans.length) return new Set();
    const fresh = await this.lineItems.findByIds(
      scope,
      plans.map((p) => p.line._id),
    );
    const frozen = new Set(fresh.filter((l) => l.frozen).map((l) => String(l._id)));
    const fieldsById = new Map(plans.map((p) => [String(p.line._id), p.fields]));
    const retry = fresh.filter((l) => !l.frozen).map((l) => build(l, fieldsById.get(String(l._id))!));
    if ((await this.lineItems.applyGuardedSets(scope, retry)) < retry.length) {
      for (const id of await this.lineItems.frozenIds(
        scope,
        retry.map((r) => r.id),
      ))
        frozen.add(id);
    }
    return frozen;
  }

  // ---------------------------------------------------------------- recalculation (queued)

  private async enqueueRecalculation(scope: ShopScope, ids: Types.ObjectId[]): Promise<void> {
    const unique = [...new Set(ids.map(String))];
    const jobs = [];
    for (let i = 0; i < unique.length; i += RECALC_JOB_SIZE) {
      const data: RecalculateJobData = {
        shopId: scope.shopId,
        lineItemIds: unique.slice(i, i + RECALC_JOB_SIZE),
      };
      jobs.push({ name: RecalculationJobs.Recalculate, data });
    }
    if (jobs.length > 0) await this.recalcQueue.addBulk(jobs);
  }

  private async enqueueSummaryRefresh(scope: ShopScope, orderIds: number[]): Promise<void> {
    const jobs = [];
    for (let i = 0; i < orderIds.length; i += RECALC_JOB_SIZE) {
      const data: RefreshSummariesJobData = {
        shopId: scope.shopId,
        orderIds: orderIds.slice(i, i + RECALC_JOB_SIZE),
      };
      jobs.push({ name: RecalculationJobs.RefreshSummaries, data });
    }
    await this.recalcQueue.addBulk(jobs);
  }

  /**
   * Re-runs the commission and payout calculation (DESIGN §6) on these line items with the current
   * shop settings, vendor and SKU records; assigns still-unassigned lines whose vendor now exists.
   * Frozen line items are skipped. Idempotent: a retried job recomputes the same figures.
   */
  async recalculate(scope: ShopScope, ids: string[]): Promise<{ recalculated: number; skipped: number }> {
    const oids = ids.map((id) => toObjectId(id)).filter((x): x is Types.ObjectId => x !== null);
    const lines = await this.lineItems.findByIds(scope, oids);
    const live = lines.filter((l) => !l.frozen);
    const ctx = await this.pricing.load(scope, {
      vendorNames: live.map((l) => l.vendorName),
      vendorIds: live.map((l) => l.vendorId),
      skus: live.map((l) => l.sku),
    });
    const writes: GuardedSet[] = [];
    for (const l of live) {
      const vendor = assignVendor(ctx, l.vendorName, l.vendorId);
      const sku = l.sku ? (ctx.skus.get(l.sku) ?? null) : null;
      const f = recalculateLineItem(
        l,
        resolveCommissionRate(vendor, sku),
        sku?.costOfGoods ?? null,
        ctx.settings,
      );
      const set: Record<string, unknown> = {
        vendorId: vendor?._id ?? null,
        commission: f.commission,
        commissionPlan: f.commissionPlan,
        costOfItem: f.costOfItem,
        taxOnCommissions: f.taxOnCommissions,
        tcs: f.tcs,
        totalGlobalDeductions: f.totalGlobalDeductions,
        payout: f.payout,
        ...payoutState(f.payout, l.paid),
      };
      // Only lines whose figures change are written (and only their orders' summaries refreshed).
      const unchanged = Object.entries(set).every(
        ([k, v]) => String(v) === String((l as unknown as Record<string, unknown>)[k]),
      );
      if (!unchanged) writes.push({ id: l._id, guard: { frozen: false, paid: l.paid }, set });
    }
    if ((await this.lineItems.applyGuardedSets(scope, writes)) < writes.length) {
      throw new ConcurrentLineItemChange('line items were paid or frozen during recalculation');
    }
    const changed = new Set(writes.map((w) => String(w.id)));
    await this.summaries.refresh(
      scope,
      live.filter((l) => changed.has(String(l._id))).map((l) => l.orderId),
    );
    return { recalculated: live.length, skipped: lines.length - live.length };
  }

  refreshSummaries(scope: ShopScope, orderIds: number[]): Promise<void> {
    return this.summaries.refresh(scope, orderIds);
  }
}

function pairKey(p: { orderId: number; lineItemId: number }): string {
  return `${p.orderId}:${p.lineItemId}`;
}

function statusOf(hasFields: boolean, recalc: boolean): LineItemUpdateStatus {
  if (hasFields && recalc) return 'updated_and_recalculate_queued';
  return hasFields ? 'updated' : 'recalculate_queued';
}

function presentFields(fields: LineItemFieldsDto | undefined | null): FieldValues {
  const out: FieldValues = {};
  if (!fields) return out;
  for (const k of UPDATABLE_FIELDS) {
    const v = (fields as Record<string, unknown>)[k];
    if (v !== undefined && v !== null) out[k] = v as number | string;
  }
  return out;
}

/** The mode rules of spec §4.2 that a DTO cannot express; 422 `{error}` when broken. */
export function assertValidUpdate(body: UpdateLineItemsDto): void {
  const hasItems = body.items !== undefined && body.items !== null;
  const hasSku = body.bySku !== undefined && body.bySku !== null;
  if (hasItems && hasSku) throw new ValidationError('Send either items or bySku, not both');
  if (!hasItems && !hasSku) {
    throw new ValidationError('Send items (an array of line item updates) or bySku (a SKU) with fields');
  }
  if (hasItems) {
    if (body.fields !== undefined || body.recalculate !== undefined) {
      throw new ValidationError(
        'fields and recalculate go inside each element of items; at the top level they belong to bySku mode',
      );
    }
    body.items!.forEach((item, i) => {
      if (Object.keys(presentFields(item.fields)).length === 0 && item.recalculate !== true) {
        throw new ValidationError(`items.${i} needs fields, recalculate: true, or both`);
      }
    });
    return;
  }
  if (body.bySku!.trim() === '') throw new ValidationError('bySku must be a non-empty SKU');
  if (Object.keys(presentFields(body.fields)).length === 0 && body.recalculate !== true) {
    throw new ValidationError('fields is required unless recalculate is true');
  }
}

function toFulfillment(
  f: IncomingFulfillment,
  prev: LineItemFulfillment | null,
  now: Date,
): LineItemFulfillment {
  const delivered = f.shipmentStatus === 'delivered';
  return {
    status: f.status,
    trackingCompany: f.trackingCompany,
    trackingNumber: f.trackingNumber,
    trackingUrl: f.trackingUrl,
    shipmentStatus: f.shipmentStatus,
    platformFulfillmentId: f.fulfillmentId,
    createdAt: prev?.createdAt ?? f.createdAt ?? f.updatedAt ?? now,
    deliveredAt: delivered ? (prev?.deliveredAt ?? f.updatedAt ?? now) : null,
  };
}
