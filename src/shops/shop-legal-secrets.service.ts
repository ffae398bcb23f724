import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import { resealAll, type ResealReport } from '../common/secrets/reseal';
import { ShopLegalRepository } from './shop-legal.repository';

/** The `secrets:rotate` report of the shops' legal tax ids (and of the vendor tax profiles). */
export type SealedValuesRotationReport = ResealReport;

/**
 * `secrets:rotate`, the shop legal part (DESIGN §14): each shop's sealed tax id re-sealed under the
 * current DATA_ENCRYPTION_KEY, opened with the current or previous key. Idempotent and resumable: a
 * value under the current key is left alone; each shop is one compare-and-set write.
 */
@Injectable()
export class ShopLegalSecretsRotation {
  private readonly logger = new Logger('ShopLegalSecrets');

  constructor(
    private readonly legal: ShopLegalRepository,
    private readonly cipher: DataCipher,
  ) {}

  rotate(): Promise<SealedValuesRotationReport> {
    return resealAll(this.cipher, {
      page: (after, limit) => this.legal.secretsPage(after, limit),
      fields: (shop) => [{ purpose: 'shop-tax-id', binding: String(shop._id), stored: shop.legal?.taxIdEnc }],
      replace: (shop, [taxIdEnc]) => this.legal.replaceTaxId(shop._id, shop.legal!.taxIdEnc!, taxIdEnc!),
      logger: this.logger,
      what: 'A shop legal tax id',
      logFields: (shop) => ({ shopId: String(shop._id) }),
    });
  }
}
