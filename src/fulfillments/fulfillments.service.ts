import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import type { AuditRecord } from '../audit/audit-record';
import { AuditTrail } from '../audit/audit-trail.service';
import { forEachBounded } from '../common/async/bounded';
import { Clock } from '../common/clock/clock';
import { ValidationError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { LineItemFulfillment } from '../line-items/line-item.schema';
import { FulfillmentRowsRepository } from '../line-items/fulfillment-rows.repository';
import type { FulfillableLineItem } from '../line-items/line-item-views';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { vendorDayRangeFilter } from '../common/dates/vendor-day-range.query';
import { markRetryable } from '../idempotency/retryable-answer';
import {
  FulfillmentListDto,
  FulfillmentListQueryDto,
  FulfillmentResultDto,
  FulfillmentResultsDto,
} from './dto/fulfillment.dto';
import { toFulfillmentRow } from './fulfillment.mapper';
import { StorePlatformUnavailable } from './platform/shopify-store-platform';
import { PlatformLineOutcome } from './platform/store-platform';
import { StorePlatforms } from './platform/store-platforms';
import { ShopPlatformService } from './shop-platform.service';

/** Distinct orders one request may fulfil (each costs at least two platform calls). */
export const MAX_ORDERS_PER_FULFILLMENT = 50;
/** Platform calls of one request running at once. */
export const FULFILLMENT_CONCURRENCY = 4;
/**
 * The request's overall budget for platform calls: no call starts after it and none outlives it
 * (each call's own timeout is cut to what is left), so the request ends shortly after it.
 */
export const FULFILLMENT_DEADLINE_MS = 60_000;
/**
 * A claim older than this belongs to a request that died; another request may take the line. Twice
 * the deadline: a live request (deadline plus its database writes) always finishes well within it,
 * so no second request can claim a line the first still works on.
 */
export const FULFILLMENT_CLAIM_TTL_MS = 2 * FULFILLMENT_DEADLINE_MS;

/** What to fulfil: the v1, V2 shop and vendor callers all send this (their DTOs differ in names only). */
export interface FulfilRequest {
  /** Calculated line item ids (`_id`); each gets its own result, in this order. */
  lineItemIds: string[];
  trackingNumber: string;
  shippingCarrier: string;
  trackingUrl: string;
  notifyCustomer?: boolean;
}

export const FULFILLMENT_MESSAGES = {
  notFound: 'Line item not found',
  duplicate: 'Line item is listed more than once in this request',
  alreadyFulfilled: 'Line item is already fulfilled',
  busy: 'Line item is being fulfilled by another request; try again shortly',
  cancelled: 'The order of this line item is cancelled',
  unreachable: 'The store platform could not be asked; nothing was fulfilled, try again',
  outOfTime:
    'Not attempted: the request reached its time limit before this order; nothing was fulfilled, try again',
} as const;

@Injectable()
export class FulfillmentsService {
  private readonly logger = new Logger(FulfillmentsService.name);

  constructor(
    private readonly lineItems: FulfillmentRowsRepository,
    private readonly platforms: StorePlatforms,
    private readonly shopPlatform: ShopPlatformService,
    private readonly summaries: OrderSummaryRefresher,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async list(scope: ShopScope, q: FulfillmentListQueryDto): Promise<FulfillmentListDto> {
    const { total, items } = await this.lineItems.fulfillmentRows(
      scope,
      {
        ...vendorDayRangeFilter(q),
        fulfillmentStatus: q.fulfillment,
        shipmentStatus: q.shipment,
      },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), fulfillments: items.map(toFulfillmentRow) };
  }

  /**
   * Creates the fulfillment on the store platform, one call per order, and records the tracking on
   * the line items. Every requested id gets its own result; nothing here changes the HTTP status.
   * A vendor scope reaches its own lines only (another's read "not found"). An answer with items the
   * platform could not be asked about is marked retryable: its Idempotency-Key is not kept, so a
   * retry fulfils those (and reads "already fulfilled" for the rest).
   */
  async create(scope: ShopScope, body: FulfilRequest): Promise<FulfillmentResultsDto> {
    const results = new Map<number, FulfillmentResultDto>();
    let retryable = false;
    const error = (i: number, message: string) =>
      results.set(i, { type: 'error', lineItemId: body.lineItemIds[i], message });

    // 1. Well-formed, first mention of each id.
    const firstIndex = new Map<string, number>();
    const ids: Types.ObjectId[] = [];
    body.lineItemIds.forEach((raw, i) => {
      const id = toObjectId(raw);
      if (!id) return error(i, FULFILLMENT_MESSAGES.notFound);
      const key = String(id);
      if (firstIndex.has(key)) return error(i, FULFILLMENT_MESSAGES.duplicate);
      firstIndex.set(key, i);
      ids.push(id);
    });

    // 2. Claim, then read what was claimed (one bulkWrite, one read).
    const now = this.clock.now();
    const lockId = randomUUID();
    await this.lineItems.claimForFulfillment(
      scope,
      ids,
      lockId,
      now,
      new Date(now.getTime() - FULFILLMENT_CLAIM_TTL_MS),
    );
    const rows = new Map((await this.lineItems.findFulfillable(scope, ids)).map((r) => [String(r._id), r]));
    const orders = new Set([...rows.values()].map((r) => r.orderId));
    if (orders.size > MAX_ORDERS_PER_FULFILLMENT) {
      // Checked after the claim so the common case stays one write and one read; undone at once.
      await this.lineItems.releaseClaims(scope, ids, lockId);
      throw new ValidationError(
        `The line items span ${orders.size} orders; at most ${MAX_ORDERS_PER_FULFILLMENT} orders per request`,
        { orders: orders.size, maxOrders: MAX_ORDERS_PER_FULFILLMENT },
      );
    }
    const claimed: FulfillableLineItem[] = [];
    const cancelled: Types.ObjectId[] = [];
    for (const [key, i] of firstIndex) {
      const row = rows.get(key);
      if (!row) error(i, FULFILLMENT_MESSAGES.notFound);
      else if (row.fulfillmentLock !== lockId) {
        error(
          i,
          row.fulfillmentStatus === 'fulfilled'
            ? FULFILLMENT_MESSAGES.alreadyFulfilled
            : FULFILLMENT_MESSAGES.busy,
        );
        if (row.fulfillmentStatus !== 'fulfilled') retryable = true;
      } else if (row.cancelled) {
        error(i, FULFILLMENT_MESSAGES.cancelled);
        cancelled.push(row._id);
      } else claimed.push(row);
    }
    await this.lineItems.releaseClaims(scope, cancelled, lockId);

    // 3. One platform call per order; record successes, free the rest.
    if (claimed.length > 0) {
      const { platform, shop } = await this.shopPlatform.platformShop(scope);
      const adapter = this.platforms.for(platform);
      const byOrder = new Map<number, FulfillableLineItem[]>();
      for (const row of claimed) byOrder.set(row.orderId, [...(byOrder.get(row.orderId) ?? []), row]);
      const tracking = { company: body.shippingCarrier, number: body.trackingNumber, url: body.trackingUrl };
      const stamp = this.audit.begin();
      const done: Array<{
        _id: Types.ObjectId;
        fulfillment: LineItemFulfillment;
        event: AuditRecord | null;
      }> = [];
      const failed: Types.ObjectId[] = [];
      const deadline = Date.now() + FULFILLMENT_DEADLINE_MS;
      await forEachBounded([...byOrder], FULFILLMENT_CONCURRENCY, async ([orderId, lines]) => {
        let outcomes: PlatformLineOutcome[];
        try {
          outcomes =
            Date.now() >= deadline
              ? lines.map((l) => ({
                  lineItemId: l.lineItemId,
                  ok: false,
                  message: FULFILLMENT_MESSAGES.outOfTime,
                }))
              : await adapter.createFulfillment({
                  shop,
                  orderId,
                  lines: lines.map((l) => ({ lineItemId: l.lineItemId, quantity: l.quantity })),
                  tracking,
                  notifyCustomer: body.notifyCustomer ?? false,
                  deadline,
                });
        } catch (err) {
          if (!(err instanceof StorePlatformUnavailable)) {
            this.logger.error(
              `fulfillment of order ${orderId} failed: ${(err as Error)?.stack ?? String(err)}`,
            );
          }
          const message =
            err instanceof StorePlatformUnavailable ? err.message : FULFILLMENT_MESSAGES.unreachable;
          outcomes = lines.map((l) => ({ lineItemId: l.lineItemId, ok: false, message }));
          retryable = true;
        }
        if (Date.now() >= deadline) retryable = true;
        const byLine = new Map(outcomes.map((o) => [o.lineItemId, o]));
        for (const line of lines) {
          const i = firstIndex.get(String(line._id))!;
          const outcome = byLine.get(line.lineItemId);
          if (outcome?.ok) {
            const fulfillment = {
              status: outcome.status,
              trackingCompany: tracking.company,
              trackingNumber: tracking.number,
              trackingUrl: tracking.url,
              shipmentStatus: null,
              platformFulfillmentId: outcome.fulfillmentId,
              createdAt: this.clock.now(),
            } as LineItemFulfillment;
            const event = this.audit.changed(
              scope,
              stamp,
              'line_item.fulfill',
              { type: 'line_item', id: line._id },
              { fulfillmentStatus: line.fulfillmentStatus, fulfillment: null },
              { fulfillmentStatus: 'fulfilled', fulfillment },
            );
            done.push({ _id: line._id, fulfillment, event });
            results.set(i, {
              type: 'success',
              lineItemId: body.lineItemIds[i],
              message: `Fulfilled with ${tracking.company} tracking number ${tracking.number}`,
            });
          } else {
            failed.push(line._id);
            error(i, outcome && !outcome.ok ? outcome.message : FULFILLMENT_MESSAGES.unreachable);
          }
        }
      });
      const all = await this.lineItems.recordFulfilled(scope, done, lockId, stamp);
      await this.audit.commit(
        scope,
        this.lineItems.outbox,
        stamp,
        done.map((d) => d.event),
        all ? 'all' : 'check',
      );
      await this.lineItems.releaseClaims(scope, failed, lockId);
      // Orders' rolled-up fulfillment status (order lists) follows the line items.
      // Only the fulfilled lines' vendors' summaries (and the shop-level ones) change.
      const doneIds = new Set(done.map((d) => String(d._id)));
      const fulfilled = claimed.filter((l) => doneIds.has(String(l._id)));
      if (fulfilled.length > 0) {
        await this.summaries.refresh(
          scope,
          fulfilled.map((l) => l.orderId),
          { onlyVendors: fulfilled.map((l) => l.vendorId).filter((v) => v != null) },
        );
      }
    }
    const answer = { fulfillments: body.lineItemIds.map((_, i) => results.get(i)!) };
    return retryable ? markRetryable(answer) : answer;
  }
}
