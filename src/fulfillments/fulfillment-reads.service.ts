import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { parseDateTime } from '../common/dates/date-time';
import { DATE_RE, dayEnd, dayStart } from '../common/dates/day-range';
import { ValidationError } from '../common/errors';
import { readCursorPage } from '../common/pagination';
import { ShopScope, toObjectId } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { FulfillmentReadsRepository } from '../line-items/fulfillment-reads.repository';
import type { FulfillmentRowFilter } from '../line-items/line-item-views';
import {
  FulfillmentCountsDto,
  FulfillmentStatsDto,
  ShipmentStatusCountsDto,
} from './dto/fulfillment-reports.dto';
import {
  FulfillmentFiltersDto,
  FulfillmentPageQueryDto,
  FulfillmentRowsPageDto,
} from './dto/fulfillment-v2.dto';
import { toFulfillmentRow } from './fulfillment.mapper';

const DAY_MS = 86_400_000;
/** "On time" and "waiting too long": 7 days from the order (DESIGN §12). */
export const ON_TIME_DAYS = 7;
const KNOWN_SHIPMENT = ['in_transit', 'out_for_delivery', 'delivered', 'failed_delivery'] as const;

/** GET /fulfillments, /fulfillments/counts, /fulfillments/stats (vendor and V2 shop callers). */
@Injectable()
export class FulfillmentReadsService {
  constructor(
    private readonly rows: FulfillmentReadsRepository,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  async list(scope: ShopScope, q: FulfillmentPageQueryDto): Promise<FulfillmentRowsPageDto> {
    const filter: FulfillmentRowFilter = {
      ...baseFilter(q),
      fulfillmentStatus: q.fulfillmentStatus,
      shipmentStatus: q.shipmentStatus,
    };
    const context = `fulfillments:${scope.shopId}:${scope.vendorId ?? ''}`;
    const page = await readCursorPage(
      q,
      this.auth.cursorKey,
      context,
      (window) => this.rows.page(scope, filter, window),
      (r) => ({ t: new Date(r.orderCreatedAt).getTime(), id: String(r._id) }),
    );
    return { items: page.items.map(toFulfillmentRow), pageInfo: page.pageInfo, totalCount: page.totalCount };
  }

  async counts(scope: ShopScope, q: FulfillmentFiltersDto): Promise<FulfillmentCountsDto> {
    const groups = await this.rows.counts(scope, baseFilter(q));
    const shipment: ShipmentStatusCountsDto = {
      in_transit: 0,
      out_for_delivery: 0,
      delivered: 0,
      failed_delivery: 0,
      other: 0,
      none: 0,
    };
    let fulfilled = 0;
    let unfulfilled = 0;
    for (const g of groups) {
      if (g.fulfillmentStatus !== 'fulfilled') {
        unfulfilled += g.count;
        continue;
      }
      fulfilled += g.count;
      const s = g.shipmentStatus;
      if (s === null) shipment.none += g.count;
      else if ((KNOWN_SHIPMENT as readonly string[]).includes(s))
        shipment[s as (typeof KNOWN_SHIPMENT)[number]] += g.count;
      else shipment.other += g.count;
    }
    return { total: fulfilled + unfulfilled, fulfilled, unfulfilled, shipmentStatus: shipment };
  }

  async stats(scope: ShopScope, q: FulfillmentFiltersDto): Promise<FulfillmentStatsDto> {
    const filter = baseFilter(q);
    const cutoff = new Date(this.clock.now().getTime() - ON_TIME_DAYS * DAY_MS);
    const [times, waiting] = await Promise.all([
      this.rows.fulfilledTimes(scope, filter),
      this.rows.unfulfilledBefore(scope, filter, cutoff),
    ]);
    // Rows fulfilled without a recorded time (legacy) are left out of the time figures.
    const spans = times
      .filter((t) => t.fulfillment?.createdAt)
      .map((t) =>
        Math.max(0, new Date(t.fulfillment!.createdAt!).getTime() - new Date(t.orderCreatedAt).getTime()),
      );
    if (spans.length === 0) {
      return { averageDaysToFulfill: null, unfulfilledFor7Days: waiting, fulfilledOnTimePercentage: null };
    }
    // Integer milliseconds summed exactly; one division each, rounded half-up to 2 dp at the end.
    const total = spans.reduce((a, b) => a + b, 0);
    const onTime = spans.filter((ms) => ms <= ON_TIME_DAYS * DAY_MS).length;
    return {
      averageDaysToFulfill: round2(total / spans.length / DAY_MS),
      unfulfilledFor7Days: waiting,
      fulfilledOnTimePercentage: round2((onTime * 100) / spans.length),
    };
  }
}

function round2(x: number): number {
  return Math.round((x + Number.EPSILON) * 100) / 100;
}

/** vendorId (shop callers; a vendor scope overrides it) and the order-date bounds. */
function baseFilter(q: FulfillmentFiltersDto): FulfillmentRowFilter {
  const min = q.dateMin ? (DATE_RE.test(q.dateMin) ? dayStart(q.dateMin) : parseDateTime(q.dateMin)) : null;
  const max = q.dateMax ? (DATE_RE.test(q.dateMax) ? dayEnd(q.dateMax) : parseDateTime(q.dateMax)) : null;
  if (min && max && min > max) {
    throw new ValidationError('dateMin must not be after dateMax', {
      fields: { dateMin: ['dateMin must not be after dateMax'] },
    });
  }
  return {
    vendorId: q.vendorId ? (toObjectId(q.vendorId) ?? undefined) : undefined,
    orderCreatedAt: min || max ? { ...(min ? { $gte: min } : {}), ...(max ? { $lte: max } : {}) } : undefined,
  };
}
