import { Inject, Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { NotFoundError, RateLimitedError, ValidationError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { webhooksConfig, WebhooksConfig } from '../config/configuration';
import type { ReplayResultDto } from './dto/webhook-endpoint.dto';
import { EventDeliveriesRepository } from './event-deliveries.repository';
import type { EventType } from '../event-port/event-catalogue';
import { EventsService } from './events.service';
import { deliveryId, subscribes } from '../event-port/fan-out';
import { OutboundEventsRepository } from './outbound-events.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** One replay re-sends at most this many events (the answer says when more matched). */
export const REPLAY_MAX = 10_000;

/**
 * Replay (issue 19; bounded by issue 28, finding 10a): re-sends an endpoint the events since a
 * time it subscribes to, with their original ids and bodies. One replay per endpoint per
 * WEBHOOK_REPLAY_COOLDOWN_SECONDS (429 + Retry-After otherwise), claimed by one conditional write
 * on the endpoint that also carries the replay's audit event; events the endpoint already received
 * (its delivery succeeded) are skipped unless `includeDelivered`.
 */
@Injectable()
export class WebhookEndpointReplay {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly managed: WebhookEndpointsService,
    private readonly deliveries: EventDeliveriesRepository,
    private readonly events: OutboundEventsRepository,
    private readonly outbound: EventsService,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly cfg: WebhooksConfig,
  ) {}

  async replay(
    scope: ShopScope,
    id: string,
    request: { since: string; includeDelivered?: boolean },
  ): Promise<ReplayResultDto> {
    const endpoint = await this.managed.load(scope, id);
    const at = Date.parse(request.since);
    if (Number.isNaN(at))
      throw new ValidationError('since must be an ISO 8601 date-time', {
        fields: { since: ['must be an ISO 8601 date-time'] },
      });
    const includeDelivered = request.includeDelivered === true;
    const now = this.clock.now();
    const cooldownMs = this.cfg.replayCooldownSeconds * 1000;
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'webhook_endpoint.replay',
      { type: 'webhook_endpoint', id: endpoint._id },
      { lastReplayAt: endpoint.lastReplayAt ?? null },
      { lastReplayAt: now },
      { after: { since: request.since, includeDelivered } },
    );
    const claimed = await this.endpoints.claimReplay(
      scope,
      endpoint._id,
      now,
      new Date(now.getTime() - cooldownMs),
      stamp,
      event,
    );
    if (!claimed) throw await this.cooling(scope, endpoint._id, now, cooldownMs);
    await this.audit.commit(scope, this.endpoints.outbox, stamp, [event], [claimed._id]);

    const window = this.outbound.window(new Date(at).toISOString());
    const found = await this.events.since(scope, window.$gte, REPLAY_MAX + 1);
    const matching = found
      .slice(0, REPLAY_MAX)
      .filter((e) => subscribes({ ...claimed, status: 'enabled' }, e.type as EventType))
      .map((e) => ({
        _id: deliveryId(e._id, claimed._id),
        endpointId: claimed._id,
        eventId: e._id,
        eventType: e.type,
      }));
    const delivered = includeDelivered
      ? new Set<string>()
      : await this.deliveries.succeededIds(
          scope,
          matching.map((r) => r._id),
        );
    const rows = matching.filter((r) => !delivered.has(String(r._id)));
    await this.deliveries.insert(scope, rows, now);
    await this.deliveries.restartMany(
      scope,
      rows.map((r) => r._id),
      now,
    );
    await this.outbound.enqueue(scope, rows);
    return {
      replayed: rows.length,
      skippedDelivered: matching.length - rows.length,
      truncated: found.length > REPLAY_MAX,
    };
  }

  /** The 429 of a replay inside the cooldown, with the seconds until the next one may start. */
  private async cooling(scope: ShopScope, id: Types.ObjectId, now: Date, cooldownMs: number): Promise<Error> {
    const fresh = await this.endpoints.findById(scope, id);
    if (!fresh) return new NotFoundError('Webhook endpoint');
    const last = fresh.lastReplayAt ? new Date(fresh.lastReplayAt).getTime() : now.getTime();
    const seconds = Math.max(1, Math.ceil((last + cooldownMs - now.getTime()) / 1000));
    return new RateLimitedError(
      seconds,
      `This endpoint was replayed less than ${this.cfg.replayCooldownSeconds} s ago: one replay per endpoint ` +
        `per ${this.cfg.replayCooldownSeconds} s; retry in ${seconds} s`,
    );
  }
}
