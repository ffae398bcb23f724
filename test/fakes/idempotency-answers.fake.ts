import type { IdempotencyRecord } from '../../src/idempotency/idempotency-record.schema';
import type { LiveAnswer, SystemIdempotencyRepository } from '../../src/idempotency/idempotency.repository';

/** Every shop's idempotency records in memory, as the rotation reads and rewrites them. */
export class FakeLiveIdempotencyAnswers implements Pick<
  SystemIdempotencyRepository,
  'liveAnswers' | 'replaceAnswer'
> {
  rows: IdempotencyRecord[] = [];
  /** Called before each compare-and-set: lets a test change a row "concurrently". */
  beforeReplace?: (row: IdempotencyRecord) => void;

  async *liveAnswers(now: Date): AsyncIterable<LiveAnswer> {
    const live = this.rows
      .filter((r) => r.expiresAt.getTime() > now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
    for (const r of live) {
      const { _id, shopId, credentialKind, credentialId, key, body } = r;
      yield { _id, shopId, credentialKind, credentialId, key, body };
    }
  }

  async replaceAnswer(before: LiveAnswer, body: string): Promise<boolean> {
    const row = this.rows.find((r) => r._id.equals(before._id));
    if (!row) return false;
    this.beforeReplace?.(row);
    if (row.body !== before.body) return false;
    row.body = body;
    return true;
  }
}
