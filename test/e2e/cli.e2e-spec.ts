import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startApp, TestApp } from '../support/app';
import { uniqueDomain } from '../support/factory';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

interface CliRun {
  code: number;
  /** stdout parsed: the result (success) or undefined. */
  out: Record<string, unknown>;
  /** The last stderr line parsed when it is JSON: the error. */
  err: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

function parseJson(text: string): Record<string, unknown> {
  try {
    return text.trim() ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function exec(
  file: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<CliRun> {
  let code = 0;
  let stdout: string;
  let stderr: string;
  try {
    ({ stdout, stderr } = await run('node', [file, ...args], {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
    }));
  } catch (e) {
    ({ code, stdout, stderr } = e as { code: number; stdout: string; stderr: string });
  }
  const lastErrLine = stderr.trim().split('\n').pop() ?? '';
  return { code, out: parseJson(stdout), err: parseJson(lastErrLine), stdout, stderr };
}

const cli = (...args: string[]) => exec(CLI, args);

describe('operator CLI (e2e, built dist/cli/main.js)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('payouts:schedule prints the shop’s schedule and its next five due dates (issue 33)', async () => {
    const domain = uniqueDomain('cli-schedule');
    const created = await cli('shop:create', '--domain', domain);
    const auth = await t.api.post('/v1/authenticate', { apiKey: created.out.apiKey, shopDomain: domain });
    const manual = await cli('payouts:schedule', '--domain', domain);
    expect(manual).toMatchObject({ code: 0, stderr: '' });
    expect(manual.out).toMatchObject({ shopDomain: domain, nextDueDates: [] });
    expect((manual.out as { payoutSchedule: { frequency: string } }).payoutSchedule.frequency).toBe('manual');

    const put = await t.api.put(
      '/v1/shop/settings',
      { payoutSchedule: { frequency: 'weekly', dayOfWeek: 3, holdDays: 7, minimumPayout: 50 } },
      { token: auth.body.token },
    );
    expect(put.status).toBe(200);
    const weekly = await cli('payouts:schedule', '--domain', domain);
    expect(weekly.code).toBe(0);
    expect(weekly.out.payoutSchedule).toMatchObject({ frequency: 'weekly', dayOfWeek: 3, holdDays: 7 });
    const dates = (weekly.out as { nextDueDates: string[] }).nextDueDates;
    expect(dates).toHaveLength(5);
    const today = new Date().toISOString().slice(0, 10);
    expect(dates[0] > today).toBe(true); // a schedule set today never catches up: the first is after today
    for (const [i, d] of dates.entries()) {
      expect(new Date(`${d}T00:00:00Z`).getUTCDay()).toBe(3); // Wednesday (ISO 3)
      if (i) expect(Date.parse(d) - Date.parse(dates[i - 1])).toBe(7 * 86_400_000);
    }
    expect(await cli('payouts:schedule', '--domain', uniqueDomain('cli-none'))).toMatchObject({
      code: 1,
      err: { error: 'Shop not found' },
      stdout: '',
    });
  });

  it('shop:create prints exactly one JSON object whose key signs in', async () => {
    const domain = uniqueDomain('cli');
    const res = await cli('shop:create', '--domain', domain, '--name', 'CLI shop');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toBe('');
    expect(res.out).toEqual({
      shopId: expect.stringMatching(/^[0-9a-f]{24}$/),
      shopDomain: domain,
      apiKey: expect.stringMatching(/^shpk_/),
      webhookSecret: expect.stringMatching(/^whsec_/),
    });
    const auth = await t.api.post('/v1/authenticate', { apiKey: res.out.apiKey, shopDomain: domain });
    expect(auth.status).toBe(200);

    const dup = await cli('shop:create', '--domain', domain.toUpperCase());
    expect(dup.code).toBe(1);
    expect(dup.stdout).toBe('');
    expect(dup.err).toEqual({ error: expect.stringContaining('already exists') });
  });

  it('shop:rotate-key replaces the key at once', async () => {
    const domain = uniqueDomain('cli-rot');
    const created = await cli('shop:create', '--domain', domain);
    const rotated = await cli('shop:rotate-key', '--domain', domain);
    expect(rotated.out).toMatchObject({ shopDomain: domain, apiKey: expect.stringMatching(/^shpk_/) });
    expect(
      (await t.api.post('/v1/authenticate', { apiKey: created.out.apiKey, shopDomain: domain })).status,
    ).toBe(401);
    expect(
      (await t.api.post('/v1/authenticate', { apiKey: rotated.out.apiKey, shopDomain: domain })).status,
    ).toBe(200);
  });

  it('merchant-key:create|rotate|revoke', async () => {
    const domain = uniqueDomain('cli-mk');
    await cli('shop:create', '--domain', domain);
    const created = await cli('merchant-key:create', '--domain', domain);
    expect(created.out).toMatchObject({
      shopDomain: domain,
      id: expect.any(String),
      key: expect.stringMatching(/^mk_live_/),
    });
    expect((await t.api.post('/authenticate', { apiKey: created.out.key })).status).toBe(200);
    const rotated = await cli('merchant-key:rotate', '--domain', domain, '--id', String(created.out.id));
    expect(rotated.out).toMatchObject({
      key: expect.stringMatching(/^mk_live_/),
      previousKey: { status: 'expiring' },
    });
    const revoked = await cli('merchant-key:revoke', '--domain', domain, '--id', String(rotated.out.id));
    expect(revoked.out).toMatchObject({ merchantKey: { status: 'revoked' } });
    expect((await t.api.post('/authenticate', { apiKey: rotated.out.key })).status).toBe(401);
  });

  it('reports errors as one {error} object on stderr with a non-zero exit, stdout empty', async () => {
    const missing = await cli('shop:rotate-key', '--domain', 'missing.myshopify.com');
    expect(missing).toMatchObject({ code: 1, err: { error: 'Shop not found' }, stdout: '' });
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(await cli('shop:create')).toMatchObject({
      code: 2,
      err: { error: "required option '--domain <domain>' not specified" },
      stdout: '',
    });
    expect(await cli('shop:create', '--domain', 'not a domain')).toMatchObject({
      code: 1,
      err: { error: expect.stringContaining('not a valid host name') },
      stdout: '',
    });
    const unknown = await cli('nope');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatchObject({
      error: "unknown command 'nope'",
      commands: expect.arrayContaining(['seed:demo']),
    });
    expect(await cli()).toMatchObject({
      code: 2,
      err: { error: expect.stringContaining('No command given') },
    });
  });

  it('refuses unknown flags, missing values and stray arguments before connecting (exit 2)', async () => {
    const domain = uniqueDomain('cli-flags');
    expect(await cli('shop:create', '--domain', domain, '--bogus', 'x')).toMatchObject({
      code: 2,
      err: { error: "unknown option '--bogus'" },
      stdout: '',
    });
    const missingValue = {
      code: 2,
      err: { error: "option '--domain <domain>' argument missing" },
      stdout: '',
    };
    expect(await cli('shop:create', '--domain')).toMatchObject(missingValue);
    expect(await cli('shop:create', '--domain', '--name', 'x')).toMatchObject(missingValue);
    expect(await cli('shop:create', '--domain', '')).toMatchObject(missingValue);
    expect(await cli('shop:create', 'extra', '--domain', domain)).toMatchObject({
      code: 2,
      err: { error: expect.stringContaining('too many arguments') },
    });
    expect(await cli('seed:demo', '--orders', 'many')).toMatchObject({
      code: 2,
      err: { error: '--orders must be an integer from 0 to 1000000' },
    });
    // none of those created the shop
    expect(await cli('shop:rotate-key', '--domain', domain)).toMatchObject({
      code: 1,
      err: { error: 'Shop not found' },
    });
  });

  it('--help for the program and for each command, on stdout with exit 0', async () => {
    const program = await cli('--help');
    expect(program.code).toBe(0);
    expect(program.stderr).toBe('');
    expect(program.stdout).toContain('Usage: npm run --silent cli -- <command> [options]');
    for (const name of [
      'shop:create',
      'shop:rotate-key',
      'merchant-key:create',
      'merchant-key:rotate',
      'merchant-key:revoke',
      'payouts:run',
      'seed:demo',
    ]) {
      expect(program.stdout).toContain(name);
      const one = await cli(name, '--help');
      expect(one).toMatchObject({ code: 0, stderr: '' });
      expect(one.stdout).toContain(`Usage: npm run --silent cli -- ${name} [options]`);
    }
    const seed = await cli('help', 'seed:demo');
    expect(seed.code).toBe(0);
    expect(seed.stdout).toMatch(/--orders <n>.*\(default: 50\)/);
    expect((await cli('payouts:run', '-h')).stdout).toMatch(
      /--domain <domain> +the shop's domain \(required\)/,
    );
  });

  it('seed:demo: the result alone on stdout, progress lines on stderr, no warnings; payouts:run the same', async () => {
    // A queue prefix of its own: seed:demo processes ingestion jobs in the CLI process, and must not
    // take the jobs of the e2e files running next to it.
    const env = { ...process.env, QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'mp-test'}-seed` };
    const seed = await exec(CLI, ['seed:demo', '--orders', '24'], { env });
    expect(seed.code).toBe(0);
    expect(seed.stdout.trim().split('\n')).toHaveLength(1);
    expect(seed.out).toMatchObject({ orders: 24, products: 7, shopDomain: expect.stringMatching(/^demo-/) });
    const lines = seed.stderr.trim().split('\n');
    // stderr is a pipe here: plain lines, no bar; the first and the last always, 31 webhooks = 7 products + 24 orders
    expect(lines[0]).toBe('seed:demo: 0/31 webhooks (0%)');
    expect(lines[lines.length - 1]).toBe('seed:demo: 31/31 webhooks (100%)');
    for (const line of lines) expect(line).toMatch(/^seed:demo: \d+\/31 webhooks \(\d+%\)$/);
    expect(seed.stderr).not.toMatch(/warning/i);

    const until = new Date().toISOString().slice(0, 10);
    const payouts = await exec(
      CLI,
      ['payouts:run', '--domain', String(seed.out.shopDomain), '--until', until],
      {
        env,
      },
    );
    expect(payouts.code).toBe(0);
    expect(payouts.out).toMatchObject({ shopDomain: seed.out.shopDomain, until });
    const batches = (payouts.out.batches as unknown[]).length;
    expect(batches).toBeGreaterThan(0);
    const plines = payouts.stderr.trim().split('\n');
    expect(plines[0]).toBe(`payouts:run: 0/${batches} batches (0%)`);
    expect(plines[plines.length - 1]).toBe(`payouts:run: ${batches}/${batches} batches (100%)`);
    expect(payouts.stderr).not.toMatch(/warning/i);

    // the demo's refunds are refund rows, and payouts:reconcile proves every vendor's balance (exit 0)
    expect(seed.out.refunds).toEqual(expect.any(Number));
    const proof = await exec(CLI, ['payouts:reconcile', '--domain', String(seed.out.shopDomain)], { env });
    expect(proof.code).toBe(0);
    expect(proof.stdout.trim().split('\n')).toHaveLength(1);
    expect(proof.out).toMatchObject({ shopDomain: seed.out.shopDomain, ok: true });
    const vendors = proof.out.vendors as Array<Record<string, unknown>>;
    expect(vendors.length).toBeGreaterThan(0);
    for (const v of vendors) expect(v).toMatchObject({ ok: true, differences: [] });
  });

  it('npm run cli before a build: one JSON error on stderr, exit 1 (scripts/cli.js checks for dist/)', async () => {
    const unbuilt = mkdtempSync(join(tmpdir(), 'mp-cli-'));
    mkdirSync(join(unbuilt, 'scripts'));
    copyFileSync(join(ROOT, 'scripts', 'cli.js'), join(unbuilt, 'scripts', 'cli.js'));
    const res = await exec(join(unbuilt, 'scripts', 'cli.js'), [
      'shop:create',
      '--domain',
      'x.myshopify.com',
    ]);
    expect(res).toMatchObject({
      code: 1,
      stdout: '',
      err: { error: expect.stringContaining('npm run build') },
    });
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    // with dist/ present the launcher hands over to it
    const built = await exec(join(ROOT, 'scripts', 'cli.js'), ['--help']);
    expect(built.code).toBe(0);
    expect(built.stdout).toContain('seed:demo');
  });

  it('reads .env from the working directory; the real environment wins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-cli-env-'));
    writeFileSync(join(dir, '.env'), 'QUEUE_PREFIX=has space\n');
    const withoutPrefix = { ...process.env };
    delete withoutPrefix.QUEUE_PREFIX;
    const domain = uniqueDomain('cli-env');
    const fromFile = await exec(CLI, ['shop:create', '--domain', domain], { cwd: dir, env: withoutPrefix });
    expect(fromFile).toMatchObject({
      code: 1,
      err: { error: expect.stringMatching(/^Invalid configuration: QUEUE_PREFIX/) },
    });
    const realWins = await exec(CLI, ['shop:create', '--domain', domain], { cwd: dir });
    expect(realWins).toMatchObject({ code: 0, out: { shopDomain: domain } });
  });
});
