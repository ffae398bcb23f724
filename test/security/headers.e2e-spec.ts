import { startApp, TestApp } from '../support/app';

/**
 * Issue 18, item 6: security headers on every answer (API and docs); DOCS_ENABLED=false hides the
 * docs; request and connection timeouts are set.
 */
describe('security: headers and docs switch (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const expectSecurityHeaders = (headers: Headers) => {
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  };

  it.each([
    ['an API answer', '/v1/vendors', 401],
    ['a route without GET', '/v1/authenticate', 404],
    ['an unknown route', '/nope', 404],
    ['Swagger UI', '/docs/v1', 200],
    ['the Swagger UI script', '/docs/v2/swagger-ui-init.js', 200],
    ['an OpenAPI document', '/docs/v1.json', 200],
  ])('%s carries the security headers', async (_what, path, status) => {
    const res = await t.api.get(path);
    expect(res.status).toBe(status);
    expectSecurityHeaders(res.headers);
  });

  it('Swagger UI loads only its own scripts (no inline script the CSP would block)', async () => {
    const html = (await t.api.get('/docs/v1')).text;
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src=/);
      expect(body.trim()).toBe('');
    }
  });

  it('the HTTP server cuts slow requests and idle sockets (Fastify requestTimeout/connectionTimeout)', () => {
    const server = t.app.getHttpServer() as import('node:http').Server;
    expect(server.requestTimeout).toBe(30_000);
    expect(server.timeout).toBe(120_000);
  });

  describe('DOCS_ENABLED=false', () => {
    let off: TestApp;
    beforeAll(async () => {
      process.env.DOCS_ENABLED = 'false';
      off = await startApp();
    });
    afterAll(async () => {
      delete process.env.DOCS_ENABLED;
      await off.close();
    });

    it.each(['/docs/v1', '/docs/v2', '/docs/v1.json', '/docs/v2.yaml'])(
      '%s → 404; the API still answers',
      async (path) => {
        expect((await off.api.get(path)).status).toBe(404);
        expect((await off.api.get('/v1/vendors')).status).toBe(401);
      },
    );
  });
});
