import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { FakeLiveIdempotencyAnswers } from '../../test/fakes/idempotency-answers.fake';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import type { AuthConfig, PlatformConfig } from '../config/configuration';
import { IdempotencyAnswersRotation } from './idempotency-rotation.service';
import type { IdempotencyRecord } from './idempotency-record.schema';
import type { SystemIdempotencyRepository } from './idempotency.repository';
import { ResponseSeal } from './response-seal';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const seal = (current: string, previous?: string) =>
  new ResponseSeal(
    { encryptionKey: current, previousEncryptionKey: previous } as PlatformConfig,
    { jwtSecret: 'x'.repeat(40) } as AuthConfig,
  );
const context = (r: Pick<IdempotencyRecord, 'shopId' | 'credentialKind' | 'credentialId' | 'key'>) =>
  `${String(r.shopId)}\nshop:${r.credentialId}\n${r.key}`;

/**
 * Issue 28, finding 7 ("every sealed-at-rest field"): stored Idempotency-Key answers (24 h) are
 * sealed under a key derived from DATA_ENCRYPTION_KEY. They open with the previous key during a
 * rotation, and secrets:rotate re-seals the live ones, so a retry after the old key is dropped
 * still gets its answer instead of a mismatch error.
 */
describe('Idempotency answers across a DATA_ENCRYPTION_KEY rotation', () => {
  const record = (key: string, body: string | null, expiresAt: Date): IdempotencyRecord => ({
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(SHOP.shopId),
    credentialKind: 'shop',
    credentialId: SHOP.shopId,
    key,
    fingerprint: 'f',
    state: body ? 'completed' : 'in_progress',
    lockId: null,
    lockedUntil: null,
    status: body ? 201 : null,
    body,
    createdAt: new Date(expiresAt.getTime() - 24 * 3600_000),
    expiresAt,
  });

  it('opens with the previous key; the rotation re-seals live answers; the new key alone opens them', async () => {
    const clock = new FixedClock();
    const now = clock.now().getTime();
    const a = seal(KEY_A);
    const answers = new FakeLiveIdempotencyAnswers();
    const live = record('k1', null, new Date(now + 3600_000));
    live.body = a.seal(context(live), '{"key":"mk_live_x"}');
    const current = record('k2', null, new Date(now + 7200_000));
    const running = record('k3', null, new Date(now + 7200_000));
    const expired = record('k4', null, new Date(now - 1));
    expired.body = a.seal(context(expired), '{}');
    const foreign = record('k5', null, new Date(now + 3600_000));
    foreign.body = seal(randomBytes(32).toString('hex')).seal(context(foreign), '{}');
    answers.rows.push(live, current, running, expired, foreign);

    const during = seal(KEY_B, KEY_A);
    current.body = during.seal(context(current), '{"n":2}');
    expect(during.open(context(live), live.body)).toBe('{"key":"mk_live_x"}');

    const rotation = new IdempotencyAnswersRotation(
      asReal<SystemIdempotencyRepository>(answers),
      during,
      clock,
    );
    expect(await rotation.rotate()).toEqual({
      answers: 3,
      resealed: 1,
      current: 1,
      unreadable: 1,
      skipped: 0,
    });
    const after = seal(KEY_B);
    expect(after.open(context(live), live.body!)).toBe('{"key":"mk_live_x"}');
    expect(after.open(context(current), current.body!)).toBe('{"n":2}');
    expect(after.open(context(expired), expired.body!)).toBeNull(); // past its 24 h: left to the purge
    expect(await rotation.rotate()).toMatchObject({ resealed: 0, current: 2 });
  });

  it('an answer replaced meanwhile is not overwritten (skipped)', async () => {
    const clock = new FixedClock();
    const answers = new FakeLiveIdempotencyAnswers();
    const r = record('k1', null, new Date(clock.now().getTime() + 3600_000));
    r.body = seal(KEY_A).seal(context(r), '{}');
    answers.rows.push(r);
    answers.beforeReplace = (row) => (row.body = 'changed');
    const rotation = new IdempotencyAnswersRotation(
      asReal<SystemIdempotencyRepository>(answers),
      seal(KEY_B, KEY_A),
      clock,
    );
    expect(await rotation.rotate()).toMatchObject({ resealed: 0, skipped: 1 });
    expect(r.body).toBe('changed');
  });
});
