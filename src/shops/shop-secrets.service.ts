import { Injectable, Logger } from '@nestjs/common';
import { DataCipher } from '../common/secrets/data-cipher';
import { ShopSecrets, ShopsRepository } from './shops.repository';
import { eachById } from '../common/secrets/each-by-id';

/** One stored value: already under the current key, opened (to be re-sealed), or unopenable. */
type Resealing = 'current' | 'unreadable' | { plain: string };

/** Shops read per page by the rotation. */
const PAGE = 200;

export interface RotationReport {
  /** The key everything is now sealed under. */
  keyId: string;
  shops: number;
  /** Shops whose secrets were re-sealed (or sealed for the first time). */
  resealed: number;
  /** Values already under the current key. */
  current: number;
  /** Values no configured key opens (left as they are; the shop must be given new ones). */
  unreadable: number;
  /** Shops changed by someone else during the run (left; run again). */
  skipped: number;
}

/**
 * `secrets:rotate`: re-seals every shop's webhook secret and store-platform access token under the
 * current DATA_ENCRYPTION_KEY, opening them with the current or the previous key
 * (DATA_ENCRYPTION_KEY_PREVIOUS); webhook secrets stored in clear before sealing existed are sealed.
 * Idempotent and resumable: a value already under the current key is left alone, each shop is one
 * compare-and-set write.
 */
@Injectable()
export class ShopSecretsService {
  private readonly logger = new Logger('ShopSecrets');

  constructor(
    private readonly shops: ShopsRepository,
    private readonly cipher: DataCipher,
  ) {}

  async rotate(): Promise<RotationReport> {
    const keyId = this.cipher.currentKeyId;
    if (!keyId) throw new Error('DATA_ENCRYPTION_KEY is not configured: there is no key to rotate to');
    const report: RotationReport = { keyId, shops: 0, resealed: 0, current: 0, unreadable: 0, skipped: 0 };
    await eachById(
      (after, limit) => this.shops.secretsPage(after, limit),
      PAGE,
      (shop) => this.rotateOne(shop, report),
    );
    return report;
  }

  private async rotateOne(shop: ShopSecrets, report: RotationReport): Promise<void> {
    report.shops++;
    const shopId = String(shop._id);
    const webhook = this.reseal(shop.webhookSecret, (v) =>
      DataCipher.isSealed(v) ? this.cipher.open('webhook-secret', shopId, v) : v,
    );
    const tokenEnc = shop.settings?.platformAccessTokenEnc ?? null;
    const token = tokenEnc === null ? null : this.reseal(tokenEnc, (v) => this.cipher.decrypt(shopId, v));
    for (const r of [webhook, token]) {
      if (r === 'current') report.current++;
      if (r === 'unreadable') {
        report.unreadable++;
        this.logger.warn({ shopId }, 'A stored secret opens under no configured key; left as it is');
      }
    }
    const opened = (r: Resealing | null): r is { plain: string } => r !== null && typeof r === 'object';
    if (!opened(webhook) && !opened(token)) return;
    const sealed = (r: Resealing | null, purpose: 'webhook-secret' | 'platform-token', stored: string) =>
      opened(r) ? this.cipher.seal(purpose, shopId, r.plain) : stored;
    const ok = await this.shops.replaceSecrets(shop, {
      webhookSecret: sealed(webhook, 'webhook-secret', shop.webhookSecret),
      platformAccessTokenEnc: tokenEnc === null ? null : sealed(token, 'platform-token', tokenEnc),
    });
    if (ok) report.resealed++;
    else report.skipped++;
  }

  private reseal(stored: string, open: (v: string) => string | null): Resealing {
    if (!this.cipher.isStale(stored)) return 'current';
    const plain = open(stored);
    return plain === null ? 'unreadable' : { plain };
  }
}
