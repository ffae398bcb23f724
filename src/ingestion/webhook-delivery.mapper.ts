import { parseJsonLossless } from './lossless-json';
import { WebhookDeliveryDetailDto, WebhookDeliveryDto } from './dto/webhook-delivery.dto';
import type { DeliverySummary } from './webhook-deliveries.repository';
import type { WebhookDelivery } from './webhook-delivery.schema';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function toWebhookDeliveryResponse(d: DeliverySummary): WebhookDeliveryDto {
  return {
    id: String(d._id),
    topic: d.topic,
    webhookId: d.webhookId,
    shopDomain: d.shopDomain,
    state: d.state,
    attempts: d.attempts ?? 0,
    lastError: d.lastError ?? null,
    receivedAt: d.receivedAt.toISOString(),
    triggeredAt: iso(d.triggeredAt),
    processedAt: iso(d.processedAt),
    processingMs: d.processingMs ?? null,
    result: d.result ?? null,
    failedAt: iso(d.failedAt),
  };
}

export function toWebhookDeliveryDetail(d: WebhookDelivery): WebhookDeliveryDetailDto {
  let payload: Record<string, unknown> | null = null;
  try {
    // Ids beyond 2^53 keep every digit (as strings): the stored body is verbatim, the view must be too.
    const parsed: unknown = parseJsonLossless(d.payload);
    payload = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    payload = null;
  }
  return { ...toWebhookDeliveryResponse(d), payload };
}
