import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import { resealAll } from '../common/secrets/reseal';
import { SystemEndpointSecretsRepository } from './system-endpoint-secrets.repository';

export interface EndpointRotationReport {
  /** Webhook endpoints seen (every shop). */
  endpoints: number;
  /** Endpoints whose signing secrets were re-sealed under the current key. */
  resealed: number;
  /** Signing secrets already under the current key. */
  current: number;
  /**
   * Signing secrets no configured key opens (left as they are): deliveries to such an endpoint fail
   * unsent until the shop rotates the endpoint's secret (`POST /v1/webhook-endpoints/{id}/rotate-secret`).
   */
  unreadable: number;
  /** Endpoints changed through the API during the run (left; run again). */
  skipped: number;
}

/**
 * `secrets:rotate`, the webhook endpoints part (issue 28): each endpoint's signing secrets (the
 * current one and a replaced one still in its 24 h overlap) are sealed by the data cipher with the
 * shop as associated data, so a key rotation must re-seal them too, or dropping the previous key
 * leaves every delivery without a signature. Same rules as the shop and payout provider secrets:
 * opened with the current or previous key, re-sealed under the current one, one compare-and-set
 * write per endpoint, idempotent and resumable.
 */
@Injectable()
export class EndpointSecretsRotation {
  private readonly logger = new Logger('EndpointSecretsRotation');

  constructor(
    private readonly endpoints: SystemEndpointSecretsRepository,
    private readonly cipher: DataCipher,
  ) {}

  async rotate(): Promise<EndpointRotationReport> {
    const { documents, ...rest } = await resealAll(this.cipher, {
      page: (after, limit) => this.endpoints.secretsPage(after, limit),
      fields: (endpoint) =>
        (endpoint.secrets ?? []).map((s) => ({
          purpose: 'platform-token' as const,
          binding: String(endpoint.shopId),
          stored: s.secretEnc,
        })),
      // Only the sealed value changes: each secret keeps its dates (the overlap of a replaced one).
      replace: (endpoint, next) =>
        this.endpoints.replaceSecrets(
          endpoint,
          (endpoint.secrets ?? []).map((s, i) => ({ ...s, secretEnc: next[i] ?? s.secretEnc })),
        ),
      logger: this.logger,
      what: 'A webhook endpoint signing secret',
      logFields: (endpoint) => ({ shopId: String(endpoint.shopId), endpointId: String(endpoint._id) }),
      countEmpty: true,
    });
    return { endpoints: documents, ...rest };
  }
}
