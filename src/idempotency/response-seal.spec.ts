import { randomBytes } from 'node:crypto';
import type { AuthConfig, PlatformConfig } from '../config/configuration';
import { ResponseSeal } from './response-seal';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const seal = (current: string, previous?: string) =>
  new ResponseSeal(
    { encryptionKey: current, previousEncryptionKey: previous } as PlatformConfig,
    { jwtSecret: 'x'.repeat(40) } as AuthConfig,
  );

describe('ResponseSeal across a DATA_ENCRYPTION_KEY rotation (issue 28)', () => {
  it('opens an answer sealed under the previous key while it is configured, and says it is stale', () => {
    const sealed = seal(KEY_A).seal('ctx', '{"key":"mk_live_x"}');
    const during = seal(KEY_B, KEY_A);
    expect(during.open('ctx', sealed)).toBe('{"key":"mk_live_x"}');
    expect(during.open('other', sealed)).toBeNull();
    expect(seal(KEY_B).open('ctx', sealed)).toBeNull(); // the previous key dropped
    const resealed = during.reseal('ctx', sealed);
    expect(resealed).not.toBe('current');
    expect(seal(KEY_B).open('ctx', resealed as string)).toBe('{"key":"mk_live_x"}');
    expect(during.reseal('ctx', resealed as string)).toBe('current');
    expect(during.reseal('ctx', seal(randomBytes(32).toString('hex')).seal('ctx', '{}'))).toBeNull();
  });
});
