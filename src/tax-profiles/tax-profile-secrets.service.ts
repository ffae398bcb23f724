import { Injectable, Logger } from '@nestjs/common';
import { DataCipher, SecretPurpose } from '../common/secrets/data-cipher';
import { eachById } from '../common/secrets/each-by-id';
import { shopScope } from '../common/tenancy';
import type { SealedValuesRotationReport } from '../shops/shop-legal-secrets.service';
import { SealedTaxProfileValues, TaxProfilesRepository } from './tax-profiles.repository';
import { sealedFor } from './tax-profiles.service';

const PAGE = 200;
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

  async rotate(): Promise<SealedValuesRotationReport> {
    const report: SealedValuesRotationReport = {
      documents: 0,
      resealed: 0,
      current: 0,
      unreadable: 0,
      skipped: 0,
    };
    await eachById(
      (after, limit) => this.profiles.secretsPage(after, limit),
      PAGE,
      (doc) => this.rotateOne(doc, report),
    );
    return report;
  }

  private async rotateOne(doc: SealedTaxProfileValues, report: SealedValuesRotationReport): Promise<void> {
    if (!doc.taxIdEnc && !doc.dateOfBirthEnc) return;
    report.documents++;
    const binding = sealedFor(shopScope(String(doc.shopId)), String(doc.vendorId));
    const next = { taxIdEnc: doc.taxIdEnc ?? null, dateOfBirthEnc: doc.dateOfBirthEnc ?? null };
    let changed = false;
    for (const { field, purpose } of SEALED) {
      const stored = doc[field] ?? null;
      if (stored === null) continue;
      if (!this.cipher.isStale(stored)) {
        report.current++;
        continue;
      }
      const plain = this.cipher.open(purpose, binding, stored);
      if (plain === null) {
        report.unreadable++;
        this.logger.warn(
          { shopId: String(doc.shopId), vendorId: String(doc.vendorId), field },
          'A vendor tax profile value opens under no configured key; left as it is',
        );
        continue;
      }
      next[field] = this.cipher.seal(purpose, binding, plain);
      changed = true;
    }
    if (!changed) return;
    if (await this.profiles.replaceSealed(doc, next)) report.resealed++;
    else report.skipped++;
  }
}
