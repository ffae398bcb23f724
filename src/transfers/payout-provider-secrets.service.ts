import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import {
  PayoutProvidersRepository,
  SEALED_PROVIDER_FIELDS,
  SealedProviderField,
  SealedProviderSecrets,
} from './payout-providers.repository';
import { eachById } from '../common/secrets/each-by-id';

/** Shops' provider documents read per page by the rotation. */
const PAGE = 200;

export interface ProviderRotationReport {
  /** Shops with payout provider credentials. */
  documents: number;
  /** Documents whose secrets were re-sealed under the current key. */
  resealed: number;
  /** Secrets already under the current key. */
  current: number;
  /** Secrets no configured key opens (left as they are; the shop must set them again). */
  unreadable: number;
  /** Documents changed through the API during the run (left; run again). */
  skipped: number;
}

/**
 * `secrets:rotate`, the payout provider part (DESIGN §10): a shop's Stripe and PayPal secrets are
 * sealed by the same data cipher as its platform token (purpose `platform-token`, the shop id as
 * associated data), so a key rotation must re-seal them too, or dropping the previous key would
 * leave every transfer unable to authenticate. Same rules as the shop secrets: opened with the
 * current or previous key, re-sealed under the current one, one compare-and-set write per shop,
 * idempotent and resumable.
 */
@Injectable()
export class PayoutProviderSecretsService {
  private readonly logger = new Logger('PayoutProviderSecrets');

  constructor(
    private readonly providers: PayoutProvidersRepository,
    private readonly cipher: DataCipher,
  ) {}

  async rotate(): Promise<ProviderRotationReport> {
    const report: ProviderRotationReport = {
      documents: 0,
      resealed: 0,
      current: 0,
      unreadable: 0,
      skipped: 0,
    };
    await eachById(
      (after, limit) => this.providers.secretsPage(after, limit),
      PAGE,
      (doc) => this.rotateOne(doc, report),
    );
    return report;
  }

  private async rotateOne(doc: SealedProviderSecrets, report: ProviderRotationReport): Promise<void> {
    report.documents++;
    const shopId = String(doc.shopId);
    const next = {} as Record<SealedProviderField, string | null>;
    let changed = false;
    for (const field of SEALED_PROVIDER_FIELDS) {
      const stored = doc[field] ?? null;
      next[field] = stored;
      if (stored === null) continue;
      if (!this.cipher.isStale(stored)) {
        report.current++;
        continue;
      }
      const plain = this.cipher.decrypt(shopId, stored);
      if (plain === null) {
        report.unreadable++;
        this.logger.warn(
          { shopId, field },
          'A payout provider secret opens under no configured key; left as it is',
        );
        continue;
      }
      next[field] = this.cipher.encrypt(shopId, plain);
      changed = true;
    }
    if (!changed) return;
    if (await this.providers.replaceSecrets(doc, next)) report.resealed++;
    else report.skipped++;
  }
}
