import { Inject, Injectable } from '@nestjs/common';
import type { OutboundPolicy } from '../common/http/outbound/outbound-http';
import { webhooksConfig, WebhooksConfig } from '../config/configuration';

/** Answers larger than this are cut (the log keeps an excerpt only; success needs just the status). */
const MAX_ANSWER_BYTES = 64 * 1024;
/** Any 2xx within this is success (Standard Webhooks: 15 s). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/**
 * The outbound-HTTP guard's policy for webhook endpoints (DESIGN §11): production sends to public
 * `https://` addresses only; `http://` and loopback/private targets only with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development, tests). Checked at creation and at every attempt
 * (the address a host resolves to can change). A provider, so a test can swap the policy between
 * creating an endpoint and delivering to it.
 */
@Injectable()
export class WebhookTargets {
  constructor(@Inject(webhooksConfig.KEY) private readonly cfg: WebhooksConfig) {}

  policy(): OutboundPolicy {
    const allowPrivate = this.cfg.allowPrivateTargets;
    return {
      allowHttp: !this.cfg.production || allowPrivate,
      allowPrivate,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxResponseBytes: MAX_ANSWER_BYTES,
    };
  }
}
