import { Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors';
import { ShopScope, toObjectId } from '../common/tenancy';
import { FulfillmentChangesRepository, LineChange } from '../line-items/fulfillment-changes.repository';
import { OrderSummaryRefresher } from '../line-items/order-summary.refresher';
import { FulfillmentChangeDto, UpdateFulfillmentDto } from './dto/fulfillment-v2.dto';
import { platformUnavailable, StorePlatformRefusedError } from './platform-errors';
import { PlatformChangeOutcome, PlatformFulfillmentRef } from './platform/store-platform';
import { StorePlatforms } from './platform/store-platforms';
import { ShopPlatformService } from './shop-platform.service';

/**
 * PUT and DELETE /fulfillments/{lineItemId}: the platform first, then the lines. A platform
 * fulfillment covers every line fulfilled with it (one per order and request), and the platform
 * changes and cancels it as a whole: so the tracking and the cancel apply to all of its lines, and
 * the answer lists them. A vendor may change only a fulfillment that covers its own lines alone.
 */
@Injectable()
export class FulfillmentChangesService {
  constructor(
    private readonly lines: FulfillmentChangesRepository,
    private readonly platforms: StorePlatforms,
    private readonly shopPlatform: ShopPlatformService,
    private readonly summaries: OrderSummaryRefresher,
    private readonly audit: AuditTrail,
  ) {}

  async updateTracking(
    scope: ShopScope,
    lineItemId: string,
    body: UpdateFulfillmentDto,
  ): Promise<FulfillmentChangeDto> {
    if (
      body.trackingNumber === undefined &&
      body.shippingCarrier === undefined &&
      body.trackingUrl === undefined
    ) {
      const message = 'Send at least one of trackingNumber, shippingCarrier, trackingUrl';
      throw new ValidationError(message, { fields: { trackingNumber: [message] } });
    }
    const { line, covered, ref, adapter } = await this.prepare(scope, lineItemId);
    const f = line.fulfillment!;
    const tracking = {
      company: body.shippingCarrier ?? f.trackingCompany ?? '',
      number: body.trackingNumber ?? f.trackingNumber ?? '',
      url: body.trackingUrl ?? f.trackingUrl ?? '',
    };
    this.settle(
      await adapter.updateTracking(ref, tracking, body.notifyCustomer ?? false).catch(platformUnavailable),
    );
    const after = {
      trackingCompany: tracking.company,
      trackingNumber: tracking.number,
      trackingUrl: tracking.url,
    };
    const stamp = this.audit.begin();
    const changes: LineChange[] = covered.map((l) => ({
      _id: l._id,
      event: this.audit.changed(
        scope,
        stamp,
        'line_item.fulfillment.update',
        { type: 'line_item', id: l._id },
        {
          trackingCompany: l.fulfillment?.trackingCompany ?? null,
          trackingNumber: l.fulfillment?.trackingNumber ?? null,
          trackingUrl: l.fulfillment?.trackingUrl ?? null,
        },
        after,
      ),
    }));
    await this.lines.setTracking(scope, ref.fulfillmentId, changes, after, stamp);
    await this.audit.commit(
      scope,
      this.lines.outbox,
      stamp,
      changes.map((c) => c.event),
      'check',
    );
    return {
      lineItemIds: covered.map((l) => String(l._id)),
      fulfillmentStatus: 'fulfilled',
      trackingCompany: tracking.company,
      trackingNumber: tracking.number,
      trackingUrl: tracking.url,
    };
  }

  async cancel(scope: ShopScope, lineItemId: string): Promise<FulfillmentChangeDto> {
    const { line, covered, ref, adapter } = await this.prepare(scope, lineItemId);
    this.settle(await adapter.cancelFulfillment(ref).catch(platformUnavailable));
    const stamp = this.audit.begin();
    const changes: LineChange[] = covered.map((l) => ({
      _id: l._id,
      event: this.audit.changed(
        scope,
        stamp,
        'line_item.fulfillment.cancel',
        { type: 'line_item', id: l._id },
        { fulfillmentStatus: 'fulfilled', platformFulfillmentId: ref.fulfillmentId },
        { fulfillmentStatus: 'unfulfilled', platformFulfillmentId: null },
      ),
    }));
    await this.lines.clearFulfillment(scope, ref.fulfillmentId, changes, stamp);
    await this.audit.commit(
      scope,
      this.lines.outbox,
      stamp,
      changes.map((c) => c.event),
      'check',
    );
    // Orders' rolled-up fulfillment status (order lists) follows the line items.
    await this.summaries.refresh(scope, [line.orderId]);
    return {
      lineItemIds: covered.map((l) => String(l._id)),
      fulfillmentStatus: 'unfulfilled',
      trackingCompany: null,
      trackingNumber: null,
      trackingUrl: null,
    };
  }

  /** The caller's fulfilled line, every line its platform fulfillment covers, and the adapter. */
  private async prepare(scope: ShopScope, lineItemId: string) {
    const id = toObjectId(lineItemId);
    const [line] = id ? await this.lines.findLines(scope, [id]) : [];
    if (!line) throw new NotFoundError('Line item');
    const fulfillmentId = line.fulfillment?.platformFulfillmentId;
    if (line.fulfillmentStatus !== 'fulfilled' || !line.fulfillment) {
      throw new ConflictError('Line item is not fulfilled');
    }
    if (!fulfillmentId) {
      throw new ConflictError(
        'This fulfillment has no store platform id (recorded before ids were kept); change it on the store platform',
      );
    }
    const covered = await this.lines.sharingFulfillment(scope, line.orderId, fulfillmentId);
    if (scope.vendorId && covered.some((l) => String(l.vendorId) !== scope.vendorId)) {
      throw new ConflictError(
        'This fulfillment also covers line items of another vendor; the shop can change or cancel it',
      );
    }
    const { platform, shop } = await this.shopPlatform.platformShop(scope);
    const ref: PlatformFulfillmentRef = { shop, orderId: line.orderId, fulfillmentId };
    return {
      line,
      covered: covered.length > 0 ? covered : [line],
      ref,
      adapter: this.platforms.for(platform),
    };
  }

  private settle(outcome: PlatformChangeOutcome): void {
    if (!outcome.ok) throw new StorePlatformRefusedError(outcome.message);
  }
}
