import { Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import type { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { shopScope, type ShopScope } from '../common/tenancy';
import { ProcessRoleInfo } from '../config/process-role';
import { EVENT_TYPES } from '../event-port/event-catalogue';
import { endpointAuditView, narrowForMerchant, unreadableByMerchant } from './endpoint-scope';
import { SystemEventsRepository } from './system-events.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import type { WebhookEndpoint } from '../event-port/webhook-endpoint.schema';

const BATCH = 200;
const MAX_ROUNDS = 50;

/**
 * The start-up narrowing of webhook endpoints (issue 28, finding 9), run by every API and worker
 * process as it starts; idempotent, so concurrent starts and restarts change each endpoint once:
 *
 *  - an endpoint stored before issue 28 has no creator on record (`createdBy` null) and no
 *    `eventScope`. It is taken as a merchant's only when the audit trail shows a merchant token
 *    creating it; otherwise it stays the shop's (`eventScope`
 *    shop, `createdBy` null: the shop can review those). Endpoint writes entered the trail only
 *    with issue 28, so endpoints from before it stay as they are unless such a record exists.
 *  - a merchant's endpoint loses the event types a merchant token cannot read; with none left it is
 *    disabled, saying why. Its `*` stays (for a merchant endpoint it means the allowed types).
 *
 * Each change is one conditional write (on the list and scope it read) carrying its audit event
 * (`webhook_endpoint.narrow`, actor platform) in the endpoint's outbox. The fan-out enforces the
 * same scope whatever is stored (fan-out.ts `mayReceive`), so this makes the stored endpoints say
 * what they receive.
 */
@Injectable()
export class EndpointNarrowing implements OnApplicationBootstrap {
  private readonly logger = new Logger('EndpointNarrowing');

  constructor(
    private readonly system: SystemEventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly audit: AuditTrail,
    @Optional() private readonly role?: ProcessRoleInfo,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.role?.role === 'cli') return;
    try {
      const report = await this.run();
      if (report.narrowed + report.scoped > 0) this.logger.log(report, 'Webhook endpoints narrowed at start');
    } catch (err) {
      // The fan-out still refuses a merchant endpoint what it cannot read; the next start retries.
      this.logger.error({ err: (err as Error)?.message }, 'Start-up narrowing of webhook endpoints failed');
    }
  }

  /** Both passes until nothing is left (bounded); how many endpoints each changed. */
  async run(): Promise<{ scoped: number; narrowed: number }> {
    const report = { scoped: 0, narrowed: 0 };
    const unreadable = EVENT_TYPES.filter(
      (t) => unreadableByMerchant({ enabledEvents: [t], eventScope: 'merchant' }).length,
    );
    for (const which of ['unscoped', { merchantListing: unreadable }] as const) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const found = await this.system.endpointsToNarrow(which, BATCH);
        let changed = 0;
        for (const { _id, shopId } of found) {
          const outcome = await this.narrowOne(shopScope(String(shopId)), _id);
          if (outcome !== 'unchanged') changed++;
          if (outcome === 'narrowed') report.narrowed++;
          if (outcome === 'scoped') report.scoped++;
        }
        // a batch in which nothing changed (lost races) would be read again as it is: stop
        if (found.length < BATCH || changed === 0) break;
      }
    }
    return report;
  }

  /** One endpoint within its shop: `narrowed` (a merchant's, changed), `scoped` (the shop's), or not. */
  async narrowOne(scope: ShopScope, id: Types.ObjectId): Promise<'narrowed' | 'scoped' | 'unchanged'> {
    const current = await this.endpoints.findById(scope, id);
    if (!current) return 'unchanged';
    const merchant =
      current.eventScope === 'merchant' ||
      current.createdBy === 'merchant' ||
      (await this.shownMerchant(scope, current));
    const expect = { enabledEvents: current.enabledEvents, eventScope: current.eventScope ?? null };
    if (!merchant) {
      if (current.eventScope) return 'unchanged';
      const done = await this.endpoints.update(
        scope,
        current._id,
        { eventScope: 'shop' },
        null,
        null,
        expect,
      );
      return done ? 'scoped' : 'unchanged';
    }
    const { kept, removed } = narrowForMerchant(current.enabledEvents);
    const set: Record<string, unknown> = {
      eventScope: 'merchant',
      createdBy: current.createdBy ?? (current.eventScope ? null : 'merchant'),
      enabledEvents: kept,
    };
    if (kept.length === 0)
      Object.assign(set, {
        status: 'disabled',
        disabledReason:
          `Narrowed at start: configured with a merchant token, which cannot read ${removed.join(', ')}; ` +
          'a shop token may set its event types',
      });
    const stamp = this.audit.platformStamp();
    const before = endpointAuditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'webhook_endpoint.narrow',
      { type: 'webhook_endpoint', id: current._id },
      before,
      endpointAuditView({ ...current, ...set } as WebhookEndpoint),
      { after: { removed } },
    );
    const done = await this.endpoints.update(scope, current._id, set, stamp, event, expect);
    if (!done) return 'unchanged';
    await this.audit.commit(scope, this.endpoints.outbox, stamp, [event], [done._id]);
    return 'narrowed';
  }

  /** Whether the shop's audit trail shows a merchant token creating this endpoint (one before issue 28). */
  private async shownMerchant(scope: ShopScope, e: WebhookEndpoint): Promise<boolean> {
    if (e.eventScope) return false;
    return this.audit.shows(scope, {
      resourceId: String(e._id),
      action: 'webhook_endpoint.create',
      actorKind: 'merchant',
    });
  }
}
