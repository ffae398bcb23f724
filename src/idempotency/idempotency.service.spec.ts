import { FakeIdempotencyRepository } from '../../test/fakes/idempotency.fake';
import { asReal, FixedClock, OTHER_SHOP, SHOP } from '../../test/fakes/fake';
import { IdempotencyInProgressError, IdempotencyKeyMismatchError, ValidationError } from '../common/errors';
import type { AuthConfig, PlatformConfig } from '../config/configuration';
import type { IdempotencyRepository } from './idempotency.repository';
import {
  canonicalJson,
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyService,
  parseIdempotencyKey,
  requestFingerprint,
} from './idempotency.service';
import { ResponseSeal } from './response-seal';

describe('Idempotency-Key (repository faked)', () => {
  let clock: FixedClock;
  let records: FakeIdempotencyRepository;
  let service: IdempotencyService;
  const fp = requestFingerprint({
    method: 'POST',
    path: '/v1/vendors',
    query: {},
    body: { vendorName: 'a' },
  });
  const other = requestFingerprint({
    method: 'POST',
    path: '/v1/vendors',
    query: {},
    body: { vendorName: 'b' },
  });

  beforeEach(() => {
    clock = new FixedClock();
    records = new FakeIdempotencyRepository();
    const seal = new ResponseSeal({} as PlatformConfig, { jwtSecret: 'x'.repeat(40) } as AuthConfig);
    service = new IdempotencyService(asReal<IdempotencyRepository>(records), seal, clock);
  });

  const SHOP_OWNER = { kind: 'shop' as const, id: SHOP.shopId };
  const later = (ms: number) => clock.set(new Date(clock.now().getTime() + ms));

  it('runs the first request, then replays its answer byte for byte (sealed at rest)', async () => {
    const run = await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    expect(run.kind).toBe('run');
    if (run.kind !== 'run') return;
    await service.complete(SHOP, SHOP_OWNER, 'k1', run, {
      status: 200,
      bodyText: '{"message":"Vendor created","key":"mk_live_x"}',
    });
    expect(records.records[0].body).not.toContain('mk_live_x');
    expect(await service.start(SHOP, SHOP_OWNER, 'k1', fp)).toEqual({
      kind: 'replay',
      status: 200,
      bodyText: '{"message":"Vendor created","key":"mk_live_x"}',
    });
  });

  it('the same key with another request → mismatch; while the first runs → in progress', async () => {
    await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    await expect(service.start(SHOP, SHOP_OWNER, 'k1', other)).rejects.toBeInstanceOf(
      IdempotencyKeyMismatchError,
    );
    await expect(service.start(SHOP, SHOP_OWNER, 'k1', fp)).rejects.toBeInstanceOf(
      IdempotencyInProgressError,
    );
  });

  it('another shop, credential kind or credential of the same kind may use the same key', async () => {
    expect((await service.start(SHOP, SHOP_OWNER, 'k1', fp)).kind).toBe('run');
    expect((await service.start(OTHER_SHOP, { kind: 'shop', id: OTHER_SHOP.shopId }, 'k1', fp)).kind).toBe(
      'run',
    );
    const keyA = { kind: 'merchant' as const, id: 'key-a' };
    const keyB = { kind: 'merchant' as const, id: 'key-b' };
    const a = await service.start(SHOP, keyA, 'k1', fp);
    expect(a.kind).toBe('run');
    if (a.kind !== 'run') return;
    await service.complete(SHOP, keyA, 'k1', a, { status: 201, bodyText: '{"key":"a"}' });
    // key B neither collides with nor sees key A's stored answer (issue 18)
    expect((await service.start(SHOP, keyB, 'k1', other)).kind).toBe('run');
    expect(await service.start(SHOP, keyA, 'k1', fp)).toEqual({
      kind: 'replay',
      status: 201,
      bodyText: '{"key":"a"}',
    });
  });

  it('a 5xx forgets the key: a retry runs again', async () => {
    const run = await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    if (run.kind !== 'run') throw new Error('expected a run');
    await service.forget(SHOP, run);
    expect((await service.start(SHOP, SHOP_OWNER, 'k1', fp)).kind).toBe('run');
  });

  it('a claim left by a dead process is taken over once its lock has passed (by one retry only)', async () => {
    await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    later(IDEMPOTENCY_LOCK_MS + 1);
    const again = await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    expect(again.kind).toBe('run');
    await expect(service.start(SHOP, SHOP_OWNER, 'k1', fp)).rejects.toBeInstanceOf(
      IdempotencyInProgressError,
    );
  });

  it('after 24 h the key is free again, even for another request', async () => {
    const run = await service.start(SHOP, SHOP_OWNER, 'k1', fp);
    if (run.kind !== 'run') throw new Error('expected a run');
    await service.complete(SHOP, SHOP_OWNER, 'k1', run, { status: 201, bodyText: '{}' });
    later(IDEMPOTENCY_TTL_MS);
    expect((await service.start(SHOP, SHOP_OWNER, 'k1', other)).kind).toBe('run');
  });

  it('keys are 1–255 printable ASCII characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('a'.repeat(255))).toBe('a'.repeat(255));
    for (const bad of ['', 'a'.repeat(256), 'naïve', 'tab\there'])
      expect(() => parseIdempotencyKey(bad)).toThrow(ValidationError);
  });

  it('fingerprints ignore key order but not values, paths or methods', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    const base = { method: 'POST', path: '/v1/vendors', query: {}, body: { a: 1, b: 2 } };
    expect(requestFingerprint(base)).toBe(requestFingerprint({ ...base, body: { b: 2, a: 1 } }));
    expect(requestFingerprint(base)).not.toBe(requestFingerprint({ ...base, body: { a: 1, b: 3 } }));
    expect(requestFingerprint(base)).not.toBe(requestFingerprint({ ...base, path: '/v2/vendors' }));
    expect(requestFingerprint(base)).not.toBe(requestFingerprint({ ...base, method: 'PATCH' }));
  });
});
