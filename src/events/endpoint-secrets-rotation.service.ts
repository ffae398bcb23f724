import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import type { StoredSecret } from '../event-port/webhook-endpoint.schema';
import { SealedEndpointSecrets, SystemEndpointSecretsRepository } from './system-endpoint-secrets.repository';
import { eachById } from '../common/secrets/each-by-id';

/** Endpoints read per page by the rotation. */
const PAGE = 200;

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
    const report: EndpointRotationReport = {
      endpoints: 0,
      resealed: 0,
      current: 0,
      unreadable: 0,
      skipped: 0,
    };
    await eachById(
      (after, limit) => this.endpoints.secretsPage(after, limit),
      PAGE,
      (endpoint) => this.rotateOne(endpoint, report),
    );
    return report;
  }

  private async rotateOne(endpoint: SealedEndpointSecrets, report: EndpointRotationReport): Promise<void> {
    report.endpoints++;
    const shopId = String(endpoint.shopId);
    let changed = false;
    const next: StoredSecret[] = (endpoint.secrets ?? []).map((s) => {
      if (!this.cipher.isStale(s.secretEnc)) {
        report.current++;
        return s;
      }
      const plain = this.cipher.decrypt(shopId, s.secretEnc);
      if (plain === null) {
        report.unreadable++;
        this.logger.warn(
          { shopId, endpointId: String(endpoint._id) },
          'A webhook endpoint signing secret opens under no configured key; left as it is',
        );
        return s;
      }
      changed = true;
      return { ...s, secretEnc: this.cipher.encrypt(shopId, plain) };
    });
    if (!changed) return;
    if (await this.endpoints.replaceSecrets(endpoint, next)) report.resealed++;
    else report.skipped++;
  }
}
