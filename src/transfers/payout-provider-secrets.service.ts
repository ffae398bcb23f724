import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import { resealAll, type ResealReport } from '../common/secrets/reseal';
import {
  PayoutProvidersRepository,
  SEALED_PROVIDER_FIELDS,
  SealedProviderField,
} from './payout-providers.repository';

/** `documents`: shops with a payout provider document (each counted, sealed values or not). */
export type ProviderRotationReport = ResealReport;

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

  rotate(): Promise<ProviderRotationReport> {
    return resealAll(this.cipher, {
      page: (after, limit) => this.providers.secretsPage(after, limit),
      fields: (doc) =>
        SEALED_PROVIDER_FIELDS.map((field) => ({
          purpose: 'platform-token' as const,
          binding: String(doc.shopId),
          stored: doc[field],
        })),
      replace: (doc, next) =>
        this.providers.replaceSecrets(
          doc,
          Object.fromEntries(SEALED_PROVIDER_FIELDS.map((f, i) => [f, next[i]])) as Record<
            SealedProviderField,
            string | null
          >,
        ),
      logger: this.logger,
      what: 'A payout provider secret',
      logFields: (doc, i) => ({ shopId: String(doc.shopId), field: SEALED_PROVIDER_FIELDS[i] }),
      countEmpty: true,
    });
  }
}
