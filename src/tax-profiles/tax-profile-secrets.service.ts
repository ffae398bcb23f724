import { Injectable, Logger } from '@nestjs/common';
import { DataCipher, SecretPurpose } from '../common/secrets/data-cipher';
import { resealAll } from '../common/secrets/reseal';
import { shopScope } from '../common/tenancy';
import type { SealedValuesRotationReport } from '../shops/shop-legal-secrets.service';
import { SealedTaxProfileValues, TaxProfilesRepository } from './tax-profiles.repository';
import { sealedFor } from './tax-profiles.service';

const SEALED: Array<{ field: 'taxIdEnc' | 'dateOfBirthEnc'; purpose: SecretPurpose }> = [
  { field: 'taxIdEnc', purpose: 'vendor-tax-id' },
  { field: 'dateOfBirthEnc', purpose: 'vendor-date-of-birth' },
];

/**
 * `secrets:rotate`, the vendor tax profile part (DESIGN §14): every profile's tax id and date of birth
 * re-sealed under the current DATA_ENCRYPTION_KEY (opened with the current or previous key). Idempotent
 * and resumable: values under the current key are left alone; each profile is one compare-and-set write.
 */
@Injectable()
export class TaxProfileSecretsRotation {
  private readonly logger = new Logger('TaxProfileSecrets');

  constructor(
    private readonly profiles: TaxProfilesRepository,
    private readonly cipher: DataCipher,
  ) {}

  rotate(): Promise<SealedValuesRotationReport> {
    const binding = (doc: SealedTaxProfileValues) =>
      sealedFor(shopScope(String(doc.shopId)), String(doc.vendorId));
    return resealAll(this.cipher, {
      page: (after, limit) => this.profiles.secretsPage(after, limit),
      fields: (doc) =>
        SEALED.map(({ field, purpose }) => ({ purpose, binding: binding(doc), stored: doc[field] })),
      replace: (doc, [taxIdEnc, dateOfBirthEnc]) =>
        this.profiles.replaceSealed(doc, { taxIdEnc, dateOfBirthEnc }),
      logger: this.logger,
      what: 'A vendor tax profile value',
      logFields: (doc, i) => ({
        shopId: String(doc.shopId),
        vendorId: String(doc.vendorId),
        field: SEALED[i].field,
      }),
    });
  }
}
