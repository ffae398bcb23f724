import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';

/** Applies one stored delivery of a topic family; returns what it did (the delivery's `result`). */
export type WebhookTopicHandler = (scope: ShopScope, topic: string, payload: unknown) => Promise<string>;

/**
 * Deliveries of other senders than the store platform (payment providers: `stripe/…`, `paypal/…`)
 * share the durable inbox: the feature that verifies them registers a handler for its topic
 * prefix, and the inbox's processing hands such deliveries to it. Ingestion knows no provider.
 */
@Injectable()
export class WebhookTopicHandlers {
  private readonly handlers = new Map<string, WebhookTopicHandler>();

  register(prefix: string, handler: WebhookTopicHandler): void {
    this.handlers.set(prefix, handler);
  }

  /** The handler of a topic (`<prefix>/<event>`), if a feature registered one. */
  find(topic: string): WebhookTopicHandler | null {
    const slash = topic.indexOf('/');
    return slash > 0 ? (this.handlers.get(topic.slice(0, slash)) ?? null) : null;
  }
}
