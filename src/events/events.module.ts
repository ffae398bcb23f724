import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { CommissionsModule } from '../commissions/commissions.module';
import { TokenCipher } from '../fulfillments/platform/token-cipher';
import { UsersModule } from '../users/users.module';
import { VendorsModule } from '../vendors/vendors.module';
import { VendorApiKeysModule } from '../vendor-keys/vendor-api-keys.module';
import { EndpointNarrowing } from './endpoint-narrowing.service';
import { EndpointSecrets } from './endpoint-secrets';
import { EndpointSecretsRotation } from './endpoint-secrets-rotation.service';
import { EventDeliveriesRepository } from './event-deliveries.repository';
import { EventDelivery, EventDeliverySchema } from './event-delivery.schema';
import { EventDispatcher } from './event-dispatcher.service';
import { EventMetrics } from './event-metrics';
import { EventObjects } from './event-objects';
import { EventSinkModule } from '../event-port/event-sink';
import { LineItemsModule } from '../line-items/line-items.module';
import { EventsSweeper } from './events-sweeper.service';
import { EventsService } from './events.service';
import { EventsV1Controller } from './events.v1.controller';
import { OutboundEvent, OutboundEventSchema } from './outbound-event.schema';
import { OutboundEventsRepository } from './outbound-events.repository';
import { SystemEndpointSecretsRepository } from './system-endpoint-secrets.repository';
import { SystemEventsRepository } from './system-events.repository';
import { WebhookEndpoint, WebhookEndpointSchema } from '../event-port/webhook-endpoint.schema';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WebhookEndpointReplay } from './webhook-endpoint-replay.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookEndpointsV1Controller } from './webhook-endpoints.v1.controller';
import { WebhookEndpointsV2Controller } from './webhook-endpoints.v2.controller';
import { WebhookTargets } from './webhook-targets';

/**
 * Outbound events (DESIGN §11, issue 19): webhook endpoints, the event catalogue fed by the audit
 * outbox (AuditRelays) and by direct emitters, signed deliveries with retries, the delivery log,
 * replay and rotation. The delivery processor and sweeper run where processors run (ProcessorsModule).
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: WebhookEndpoint.name, schema: WebhookEndpointSchema },
      { name: OutboundEvent.name, schema: OutboundEventSchema },
      { name: EventDelivery.name, schema: EventDeliverySchema },
    ]),
    VendorsModule,
    UsersModule,
    VendorApiKeysModule,
    AdjustmentsModule,
    LineItemsModule,
    CommissionsModule,
    EventSinkModule,
  ],
  controllers: [WebhookEndpointsV1Controller, WebhookEndpointsV2Controller, EventsV1Controller],
  providers: [
    WebhookEndpointsRepository,
    OutboundEventsRepository,
    EventDeliveriesRepository,
    SystemEventsRepository,
    SystemEndpointSecretsRepository,
    TokenCipher,
    EndpointSecrets,
    EndpointSecretsRotation,
    WebhookTargets,
    EventObjects,
    EventMetrics,
    EventsService,
    WebhookEndpointsService,
    WebhookEndpointReplay,
    EndpointNarrowing,
    EventDispatcher,
    EventsSweeper,
  ],
  exports: [
    EventsService,
    EventDispatcher,
    EventsSweeper,
    EventMetrics,
    WebhookTargets,
    EndpointSecretsRotation,
  ],
})
export class EventsModule {}
