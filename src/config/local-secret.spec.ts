import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localJwtSecret } from './local-secret';

describe('localJwtSecret (no JWT_SECRET outside production)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mp-secret-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a random secret once, readable only by its owner, and keeps it', () => {
    const first = localJwtSecret(join(dir, 'data'));
    expect(first.file).toBe(join(dir, 'data', 'jwt-secret'));
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file, 'utf8').trim()).toBe(first.secret);
    expect(localJwtSecret(join(dir, 'data')).secret).toBe(first.secret);
  });

  it('differs between installations: there is no secret written in the code', () => {
    expect(localJwtSecret(join(dir, 'a')).secret).not.toBe(localJwtSecret(join(dir, 'b')).secret);
  });
});
