import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../../src/app.factory';
import { httpConfig } from '../../src/config/configuration';
import { startApp, TestApp } from '../support/app';

const ADMIN = 'https://admin.example.com';
const REQUEST_HEADERS = CORS_ALLOWED_HEADERS;
const EXPOSED = CORS_EXPOSED_HEADERS;

const list = (value: string | null) => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

function preflight(t: TestApp, path: string, origin: string) {
  return t.api.request('OPTIONS', path, undefined, {
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': REQUEST_HEADERS.join(','),
    },
  });
}

/** The app as main.ts builds it, with CORS_ORIGINS as given (the config namespace it is read through). */
const withOrigins = (corsOrigins: string[]) =>
  startApp((b) => b.overrideProvider(httpConfig.KEY).useValue({ corsOrigins }));

describe('CORS (e2e)', () => {
  describe('CORS_ORIGINS unset (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await withOrigins([]);
    });
    afterAll(() => t.close());

    it('sends no CORS headers and answers no preflight', async () => {
      const res = await t.api.get('/health', { headers: { origin: ADMIN } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const pre = await preflight(t, '/v1/vendors', ADMIN);
      expect(pre.status).toBe(404);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('CORS_ORIGINS=https://admin.example.com,http://localhost:5173', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await withOrigins([ADMIN, 'http://localhost:5173']);
    });
    afterAll(() => t.close());

    it('declares the headers the issue names', () => {
      expect(REQUEST_HEADERS).toEqual(['x-access-token', 'content-type', 'idempotency-key', 'x-request-id']);
      expect(EXPOSED).toEqual(expect.arrayContaining(['x-request-id', 'retry-after', 'idempotent-replayed']));
      expect(EXPOSED.filter((h) => h.startsWith('ratelimit-'))).toHaveLength(3);
    });

    it('answers a preflight from an allowed origin with 204 and the headers a client needs', async () => {
      for (const path of ['/v1/vendors', '/v2/orders', '/authenticate']) {
        const res = await preflight(t, path, ADMIN);
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe(ADMIN);
        expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
          expect.arrayContaining(REQUEST_HEADERS),
        );
        expect(list(res.headers.get('access-control-allow-methods'))).toEqual(
          expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
        );
        expect(res.headers.get('access-control-max-age')).toBe('600');
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
        expect(list(res.headers.get('vary'))).toContain('origin');
      }
    });

    it('lets scripts read the request id, rate-limit and replay headers, on errors too', async () => {
      const ok = await t.api.get('/health', { headers: { origin: 'http://localhost:5173' } });
      expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(list(ok.headers.get('access-control-expose-headers'))).toEqual(EXPOSED);
      const denied = await t.api.get('/v1/shop/settings', { headers: { origin: ADMIN } });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('access-control-allow-origin')).toBe(ADMIN);
      expect(list(denied.headers.get('access-control-expose-headers'))).toContain('x-request-id');
    });

    it('gives another origin nothing to go on', async () => {
      const pre = await preflight(t, '/v1/vendors', 'https://evil.example.com');
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const res = await t.api.get('/health', { headers: { origin: 'https://evil.example.com' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('CORS_ORIGINS=*', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await withOrigins(['*']);
    });
    afterAll(() => t.close());

    it('allows any origin, explicitly', async () => {
      const pre = await preflight(t, '/v2/vendors', 'https://anywhere.example.org');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(list(pre.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(REQUEST_HEADERS),
      );
    });
  });
});
