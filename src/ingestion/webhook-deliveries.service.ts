import { Injectable } from '@nestjs/common';
import { dayRangeFilter } from '../common/dates/day-range';
import { NotFoundError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookDeliveryListQueryDto,
} from './dto/webhook-delivery.dto';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { toWebhookDeliveryDetail, toWebhookDeliveryResponse } from './webhook-delivery.mapper';
import { WebhookInbox } from './webhook-inbox.service';

/** The operator's view of the shop's inbox: list, one delivery with its payload, retry a failed one. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly inbox: WebhookInbox,
  ) {}

  async list(scope: ShopScope, q: WebhookDeliveryListQueryDto): Promise<WebhookDeliveryListDto> {
    const { total, items } = await this.deliveries.page(
      scope,
      { state: q.state, topic: q.topic, receivedAt: dayRangeFilter(q.start, q.end) },
      q,
    );
    return { total, nextOffset: nextOffset(q, total), deliveries: items.map(toWebhookDeliveryResponse) };
  }

  async get(scope: ShopScope, id: string): Promise<WebhookDeliveryDetailDto> {
    const d = await this.deliveries.findById(scope, id);
    if (!d) throw new NotFoundError('Webhook delivery');
    return toWebhookDeliveryDetail(d);
  }

  async retry(scope: ShopScope, id: string): Promise<WebhookDeliveryDto> {
    return toWebhookDeliveryResponse(await this.inbox.retry(scope, id));
  }
}
