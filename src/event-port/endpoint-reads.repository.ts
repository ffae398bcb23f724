import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import type { UnionPart } from '../database/read-together';
import { TenantRepository } from '../database/tenant-repository';
import { WebhookEndpoint } from './webhook-endpoint.schema';

/** Newest first, as the events engine reads a shop's endpoints (WebhookEndpointsRepository.all). */
const NEWEST = { createdAt: -1, _id: -1 } as const;

/**
 * The one read of webhook endpoints a publishing feature makes: the shop's endpoints as a part of
 * its own combined read, so the event it is about to emit needs no read of its own (ingestion's
 * `order.received`: one round trip less per new order). Read-only; the events engine owns every
 * other read and write of `webhook_endpoints` (events/webhook-endpoints.repository.ts).
 */
@Injectable()
export class EndpointReadsRepository extends TenantRepository<WebhookEndpoint> {
  constructor(@InjectModel(WebhookEndpoint.name) model: Model<WebhookEndpoint>) {
    super(model);
  }

  /** Every endpoint of the shop (at most 16), as a part of a combined read (database/read-together.ts). */
  allPart(tag: string, scope: ShopScope): UnionPart {
    return this.readPart(tag, scope, {}, undefined, NEWEST);
  }
}
