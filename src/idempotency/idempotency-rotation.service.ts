import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { shopScope } from '../common/tenancy';
import { IdempotencyOwner, SystemIdempotencyRepository } from './idempotency.repository';
import { sealContext } from './idempotency.service';
import { ResponseSeal } from './response-seal';

export interface AnswersRotationReport {
  /** Stored answers still inside their 24 h (every shop). */
  answers: number;
  /** Answers re-sealed under the current key. */
  resealed: number;
  /** Answers already under the current key. */
  current: number;
  /** Answers no configured key opens (left: a retry with that key gets the mismatch error). */
  unreadable: number;
  /** Answers changed during the run (left; run again). */
  skipped: number;
}

/**
 * `secrets:rotate`, the Idempotency-Key part (issue 28): a stored answer (24 h; a merchant key's
 * creation answer holds the key) is sealed under a key derived from DATA_ENCRYPTION_KEY, so the
 * live ones are re-sealed under the current key; otherwise a retry after the previous key is dropped
 * would get a mismatch error instead of its answer. Expired records are left to the hourly purge.
 * One compare-and-set per answer: idempotent and resumable.
 */
@Injectable()
export class IdempotencyAnswersRotation {
  private readonly logger = new Logger('IdempotencyAnswersRotation');

  constructor(
    private readonly records: SystemIdempotencyRepository,
    private readonly seal: ResponseSeal,
    private readonly clock: Clock,
  ) {}

  async rotate(): Promise<AnswersRotationReport> {
    const report: AnswersRotationReport = { answers: 0, resealed: 0, current: 0, unreadable: 0, skipped: 0 };
    for await (const r of this.records.liveAnswers(this.clock.now())) {
      if (!r.body) continue;
      report.answers++;
      const owner: IdempotencyOwner = {
        kind: r.credentialKind as IdempotencyOwner['kind'],
        id: r.credentialId,
      };
      const next = this.seal.reseal(sealContext(shopScope(String(r.shopId)), owner, r.key), r.body);
      if (next === 'current') report.current++;
      else if (next === null) {
        report.unreadable++;
        this.logger.warn(
          { shopId: String(r.shopId) },
          'A stored idempotent answer opens under no configured key',
        );
      } else if (await this.records.replaceAnswer(r, next)) report.resealed++;
      else report.skipped++;
    }
    return report;
  }
}
