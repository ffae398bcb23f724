import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import { eachById } from '../common/secrets/each-by-id';
import { ShopLegalRepository, ShopLegalSecret } from './shop-legal.repository';

const PAGE = 200;

/** The `secrets:rotate` report of the shops' legal tax ids. */
export interface SealedValuesRotationReport {
  /** Documents holding a sealed value. */
  documents: number;
  resealed: number;
  current: number;
  /** Values no configured key opens (left as they are; the owner must enter them again). */
  unreadable: number;
  /** Documents changed through the API during the run (left; run again). */
  skipped: number;
}

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

  async rotate(): Promise<SealedValuesRotationReport> {
    const report: SealedValuesRotationReport = {
      documents: 0,
      resealed: 0,
      current: 0,
      unreadable: 0,
      skipped: 0,
    };
    await eachById(
      (after, limit) => this.legal.secretsPage(after, limit),
      PAGE,
      (shop) => this.rotateOne(shop, report),
    );
    return report;
  }

  private async rotateOne(shop: ShopLegalSecret, report: SealedValuesRotationReport): Promise<void> {
    const stored = shop.legal?.taxIdEnc ?? null;
    if (stored === null) return;
    report.documents++;
    if (!this.cipher.isStale(stored)) {
      report.current++;
      return;
    }
    const shopId = String(shop._id);
    const plain = this.cipher.open('shop-tax-id', shopId, stored);
    if (plain === null) {
      report.unreadable++;
      this.logger.warn({ shopId }, 'A shop legal tax id opens under no configured key; left as it is');
      return;
    }
    const ok = await this.legal.replaceTaxId(
      shop._id,
      stored,
      this.cipher.seal('shop-tax-id', shopId, plain),
    );
    if (ok) report.resealed++;
    else report.skipped++;
  }
}
