import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const cache = new Map<string, string>();

/**
 * The JWT secret of a development or test installation that set no JWT_SECRET: random, generated
 * at the first start and kept in `<dataDir>/jwt-secret` with mode 0600, so every process of the
 * installation (API, worker, CLI, tests) shares it and nobody else can know it. There is no
 * built-in secret: a token signed with any string written in the code is refused.
 */
export function localJwtSecret(dataDir: string): { secret: string; file: string } {
  const file = join(resolve(process.cwd(), dataDir), 'jwt-secret');
  const hit = cache.get(file);
  if (hit) return { secret: hit, file };
  mkdirSync(resolve(process.cwd(), dataDir), { recursive: true });
  try {
    // 'wx': only the first of several processes starting together creates it; the others read it.
    writeFileSync(file, randomBytes(48).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  let secret = readFileSync(file, 'utf8').trim();
  // A reader that raced the creator may see the file before it is written: read once more.
  if (secret.length < 32) secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} does not hold a secret of 32+ characters`);
  cache.set(file, secret);
  return { secret, file };
}
