import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startApp, TestApp } from '../support/app';
import { uniqueDomain } from '../support/factory';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'dist', 'cli', 'main.js');

async function cli(...args: string[]): Promise<{ code: number; out: Record<string, unknown>; raw: string }> {
  try {
    const { stdout } = await run('node', [CLI, ...args], { env: process.env });
    return { code: 0, out: JSON.parse(stdout), raw: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: JSON.parse(e.stdout), raw: e.stdout };
  }
}

describe('operator CLI (e2e, built dist/cli/main.js)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('shop:create prints exactly one JSON object whose key signs in', async () => {
    const domain = uniqueDomain('cli');
    const res = await cli('shop:create', '--domain', domain, '--name', 'CLI shop');
    expect(res.code).toBe(0);
    expect(res.raw.trim().split('\n')).toHaveLength(1);
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
    expect(dup.out).toEqual({ error: expect.stringContaining('already exists') });
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

  it('reports errors as {error} with a non-zero exit', async () => {
    expect(await cli('shop:rotate-key', '--domain', 'missing.myshopify.com')).toMatchObject({
      code: 1,
      out: { error: 'Shop not found' },
    });
    expect(await cli('shop:create')).toMatchObject({ code: 2, out: { error: '--domain is required' } });
    expect(await cli('shop:create', '--domain', 'not a domain')).toMatchObject({
      code: 1,
      out: { error: expect.stringContaining('not a valid host name') },
    });
    const unknown = await cli('nope');
    expect(unknown.code).toBe(2);
    expect(unknown.out.error).toBe('Unknown command "nope"');
  });
});
