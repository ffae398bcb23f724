import { Injectable } from '@nestjs/common';
import type { AuditStamp } from '../audit/audit-record';
import { AuditTrail } from '../audit/audit-trail.service';
import { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import { costOfGoodsPerUnit } from '../common/money';
import type { ShopScope } from '../common/tenancy';
import {
  LineItemUpdateErrorDto,
  LineItemUpdateItemDto,
  LineItemUpdateResultDto,
  UpdateLineItemsDto,
  UpdateLineItemsResponseDto,
} from './dto/line-items-update.dto';
import type { LineItem } from './line-item.schema';
import {
  assertValidUpdate,
  FieldValues,
  FROZEN_ERROR,
  NOT_FOUND_ERROR,
  pairKey,
  presentFields,
  statusOf,
} from './line-item-update.rules';
import { LineItemsRepository } from './line-items.repository';
import { VendorTally } from './vendor-tally.service';
import { LineItemFieldWrites } from './line-item-field-writes';
import { OrderSummaryRefresher } from './order-summary.refresher';
import { RecalculationService } from './recalculation.service';

/** Up to this many orders, a by-SKU field write refreshes their summaries before answering. */
const SYNC_REFRESH_LIMIT = 200;
/**
 * A by-SKU update writes (and answers per line for) at most this many lines, oldest order first;
 * the rest of the SKU's lines are written by a job (`jobId`), so the answer and the request's
 * memory stay bounded however many lines a SKU has.
 */
export const BY_SKU_INLINE_LINES = 100;

/** POST /v1/lineitems/update: hand-written figures and queued recalculation (spec §4.2). */

@Injectable()
export class LineItemUpdatesService {
  private readonly writes: LineItemFieldWrites;

  constructor(
    private readonly lineItems: LineItemsRepository,
    skus: SkuCommissionsRepository,
    private readonly recalculation: RecalculationService,
    private readonly summaries: OrderSummaryRefresher,
    private readonly audit: AuditTrail,
    tally: VendorTally,
  ) {
    this.writes = new LineItemFieldWrites(lineItems, skus, audit, tally);
  }

  async update(scope: ShopScope, body: UpdateLineItemsDto): Promise<UpdateLineItemsResponseDto> {
    assertValidUpdate(body);
    // One stamp for the request: every line it writes gets its own event (`line_item.update`,
    // the changed figures), every SKU record it touches its own (`sku_commission.*`).
    const stamp = this.audit.begin();
    return body.items
      ? this.updateItems(scope, body.items, stamp)
      : this.updateBySku(
          scope,
          body.bySku!.trim(),
          presentFields(body.fields),
          body.recalculate === true,
          stamp,
        );
  }

  private async updateItems(
    scope: ShopScope,
    items: LineItemUpdateItemDto[],
    stamp: AuditStamp | null,
  ): Promise<UpdateLineItemsResponseDto> {
    const found = await this.lineItems.findByPairs(scope, items);
    const byKey = new Map(found.map((l) => [pairKey(l), l]));
    // Entries naming the same line item are merged into one plan (later fields win).
    const plans = new Map<string, { line: LineItem; fields: FieldValues; recalc: boolean }>();
    const entries = items.map((item) => ({
      item,
      line: byKey.get(pairKey(item)),
      fields: presentFields(item.fields),
      recalc: item.recalculate === true,
    }));
    for (const { line, fields, recalc } of entries) {
      if (!line || line.frozen) continue;
      const plan = plans.get(pairKey(line)) ?? { line, fields: {}, recalc: false };
      Object.assign(plan.fields, fields);
      plan.recalc ||= recalc;
      plans.set(pairKey(line), plan);
    }
    const withFields = [...plans.values()].filter((p) => Object.keys(p.fields).length > 0);
    const frozenNow = await this.writeFields(scope, withFields, stamp);
    const live = (l: LineItem) => !l.frozen && !frozenNow.has(String(l._id));

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
      if (!live(e.line)) {
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

    await this.setCosts(
      scope,
      [...costs.entries()].map(([sku, costOfGoods]) => ({ sku, costOfGoods })),
      stamp,
    );
    const jobId = await this.recalculation.queueRecalculation(
      scope,
      [...plans.values()].filter((p) => p.recalc && live(p.line)).map((p) => p.line._id),
    );
    const written = withFields.filter((p) => live(p.line));
    if (written.length > 0) {
      await this.summaries.refresh(
        scope,
        written.map((p) => p.line.orderId),
      );
    }
    return {
      success: errors.length === 0,
      matched: results.length + errors.filter((e) => e.error !== NOT_FOUND_ERROR).length,
      updated,
      recalculateQueued: queued,
      jobId,
      results,
      errors,
    };
  }

  private async updateBySku(
    scope: ShopScope,
    sku: string,
    fields: FieldValues,
    recalc: boolean,
    stamp: AuditStamp | null,
  ): Promise<UpdateLineItemsResponseDto> {
    // One line more than answered inline tells whether a job must do the rest.
    const firstLines = await this.lineItems.findBySkuPage(scope, sku, null, BY_SKU_INLINE_LINES + 1);
    const more = firstLines.length > BY_SKU_INLINE_LINES;
    const inline = more ? firstLines.slice(0, BY_SKU_INLINE_LINES) : firstLines;
    // Updates address sale rows; a refund row of the same line keeps the figures it was cut with.
    const matched = inline.filter((l) => l.type !== 'refund');
    const matchedCount = more ? await this.lineItems.countBySku(scope, sku) : matched.length;
    const hasFields = Object.keys(fields).length > 0;
    const frozenNow = hasFields
      ? await this.writeFields(
          scope,
          matched.filter((l) => !l.frozen).map((line) => ({ line, fields })),
          stamp,
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
    if (more) {
      const last = inline[inline.length - 1];
      const jobId = await this.recalculation.queueSkuUpdate(scope, {
        sku,
        fields,
        recalculate: recalc,
        recalcIds: recalc ? accepted.map((l) => String(l._id)) : [],
        after: { orderCreatedAt: last.orderCreatedAt.toISOString(), id: String(last._id) },
        remaining: matchedCount - matched.length,
        stamp,
      });
      if (hasFields && accepted.length > 0)
        await this.summaries.refresh(scope, [...new Set(accepted.map((l) => l.orderId))]);
      return {
        success: errors.length === 0,
        matched: matchedCount,
        updated: hasFields ? accepted.length : 0,
        recalculateQueued: recalc ? accepted.length : 0,
        jobId,
        results,
        errors,
      };
    }
    if (fields.costOfItem !== undefined) {
      // The SKU's per-unit cost comes from the newest matched line (quantity 1 when none matched).
      const newest = accepted[accepted.length - 1];
      const perUnit = costOfGoodsPerUnit(fields.costOfItem, newest ? newest.quantity : 1);
      if (perUnit !== null) await this.setCosts(scope, [{ sku, costOfGoods: perUnit }], stamp);
    }
    let jobId: string | null = null;
    if (recalc)
      jobId = await this.recalculation.queueRecalculation(
        scope,
        accepted.map((l) => l._id),
      );
    else if (hasFields && accepted.length > 0) {
      const orderIds = [...new Set(accepted.map((l) => l.orderId))];
      if (orderIds.length <= SYNC_REFRESH_LIMIT) await this.summaries.refresh(scope, orderIds);
      else await this.recalculation.queueSummaryRefresh(scope, orderIds);
    }
    return {
      success: errors.length === 0,
      matched: matchedCount,
      updated: hasFields ? accepted.length : 0,
      recalculateQueued: recalc ? accepted.length : 0,
      jobId,
      results,
      errors,
    };
  }

  /** Hand-given figures written to line items not frozen (line-item-field-writes.ts); the ids found frozen. */
  writeFields(
    scope: ShopScope,
    plans: Array<{ line: LineItem; fields: FieldValues }>,
    stamp: AuditStamp | null,
  ): Promise<Set<string>> {
    return this.writes.writeFields(scope, plans, stamp);
  }

  /** Per-unit costs of goods on the SKU records, each change with its event. */
  setCosts(
    scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
    stamp: AuditStamp | null,
  ): Promise<void> {
    return this.writes.setCosts(scope, entries, stamp);
  }
}
