import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * scripts/services.sh as the suite's own runs use it, against the services already up (it starts
 * nothing here: `status` only reads, and `install` is refused before it would build anything).
 */
const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'services.sh');

function services(args: string[], env: Record<string, string> = {}) {
  return spawnSync('bash', [SCRIPT, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
  });
}

describe('scripts/services.sh', () => {
  let data: string;
  beforeEach(() => {
    data = mkdtempSync(path.join(tmpdir(), 'services-script-'));
  });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  it('status answers 0 with every service up, also when this script started none of them', () => {
    const res = services(['status'], { MP_DATA_DIR: data });
    expect(res.stdout).toMatch(/^MongoDB: up on /m);
    expect(res.stdout).toMatch(/^Redis: up on /m);
    expect(res.stdout).toMatch(/^stripe-mock: up on /m);
    expect(res.status).toBe(0);
  });

  it('refuses a removed MP_STORE by name instead of building it or silently running another store', () => {
    // Go and Java off PATH: an old script would fail on the missing toolchain, never build.
    const res = services(['install'], {
      MP_STORE: 'ferretdb-sqlite',
      MP_DATA_DIR: data,
      MP_BIN_DIR: path.join(data, 'bin'),
      PATH: '/usr/bin:/bin',
    });
    expect(res.stderr).toContain('MP_STORE=ferretdb-sqlite is no longer a choice');
    expect(res.stderr).toContain('docs/adr/0037-supported-stores.md');
    expect(res.status).toBe(1);
  });
});
