import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';

describe('errors, request ids and health (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'errors');
  });
  afterAll(() => t.close());

  it('unknown routes are 404 in the shape of their API generation', async () => {
    const v1 = await t.api.get('/v1/nothing-here');
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ error: 'Route not found' });
    const v2 = await t.api.get('/v2/nothing-here');
    expect(v2.status).toBe(404);
    expect(v2.body).toEqual({ success: false, error: { message: 'Route not found', code: 'NOT_FOUND' } });
  });

  it('malformed JSON is 400 and changes nothing', async () => {
    const before = (await t.api.get('/v1/merchant-keys', { token: shop.token })).body.total;
    const v1 = await t.api.post('/v1/merchant-keys', undefined, { token: shop.token, raw: '{"name": ' });
    expect(v1.status).toBe(400);
    expect(v1.body).toEqual({ error: expect.any(String) });
    const v2 = await t.api.post('/authenticate', undefined, { raw: '{nope' });
    expect(v2.status).toBe(400);
    expect(v2.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    expect((await t.api.get('/v1/merchant-keys', { token: shop.token })).body.total).toBe(before);
  });

  it('a body over 1 MB is 413', async () => {
    const raw = JSON.stringify({ apiKey: 'x'.repeat(1024 * 1024 + 10) });
    const v1 = await t.api.post('/v1/authenticate', undefined, { raw });
    expect(v1.status).toBe(413);
    expect(v1.body).toEqual({ error: expect.any(String) });
    const v2 = await t.api.post('/authenticate', undefined, { raw });
    expect(v2.status).toBe(413);
    expect(v2.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('unknown body properties are refused with 422', async () => {
    const res = await t.api.post('/v1/merchant-keys', { name: 'x', admin: true }, { token: shop.token });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain('property admin should not exist');
  });

  it('echoes a well-formed caller x-request-id, answers ours otherwise; the audit keeps ours beside theirs (finding 13c)', async () => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const theirs of ['req-abc.123', 'a', 'A:b_c-d.e', 'x'.repeat(128)]) {
      const given = await t.api.get('/health', { headers: { 'x-request-id': theirs } });
      expect(given.headers.get('x-request-id')).toBe(theirs);
    }
    // on an error answer too
    const missing = await t.api.get('/v1/nothing-here', { headers: { 'x-request-id': 'req-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('req-404');
    // malformed: ignored, ours answered (a fresh one each time)
    const seen = new Set<string>();
    for (const bad of ['bad id with spaces', 'x'.repeat(129), 'ünïcode', 'a,b', '<script>']) {
      const res = await t.api.get('/health', { headers: { 'x-request-id': bad } });
      const answered = res.headers.get('x-request-id')!;
      expect(answered).toMatch(UUID);
      seen.add(answered);
    }
    expect(seen.size).toBe(5);
    expect((await t.api.get('/health')).headers.get('x-request-id')).toMatch(UUID);

    // the audit record holds our id as requestId and the caller's beside it
    const theirs = `caller-${Date.now()}`;
    const created = await t.api.post(
      '/v1/vendors',
      { vendorName: `Request ids ${theirs}`, commissionType: 'flat', commissionAmount: 3 },
      { token: shop.token, headers: { 'x-request-id': theirs } },
    );
    expect(created.status).toBe(200);
    expect(created.headers.get('x-request-id')).toBe(theirs);
    const again = await t.api.post(
      '/v1/vendors',
      { vendorName: `Request ids 2 ${theirs}`, commissionType: 'flat', commissionAmount: 3 },
      { token: shop.token, headers: { 'x-request-id': theirs } },
    );
    const audit = async (vendorId: string) => {
      const res = await t.api.get(`/v1/audit-events?action=vendor.create&resourceId=${vendorId}`, {
        token: shop.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.events).toHaveLength(1);
      return res.body.events[0];
    };
    const [first, second] = [await audit(created.body.vendor._id), await audit(again.body.vendor._id)];
    expect(first).toMatchObject({ requestId: expect.stringMatching(UUID), clientRequestId: theirs });
    // the same caller id twice: two requests of ours, never one
    expect(second).toMatchObject({ requestId: expect.stringMatching(UUID), clientRequestId: theirs });
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('liveness and readiness', async () => {
    expect((await t.api.get('/health')).body).toEqual({ status: 'ok' });
    const ready = await t.api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { mongodb: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('serves both OpenAPI documents and their Swagger UIs', async () => {
    const v1 = await t.api.get('/docs/v1.json');
    const v2 = await t.api.get('/docs/v2.json');
    expect(v1.body.info.version).toBe('1.0.0');
    expect(v2.body.info.version).toBe('2.0.0');
    expect(Object.keys(v1.body.paths)).toContain('/v1/authenticate');
    expect(Object.keys(v1.body.paths).every((p) => !p.startsWith('/v2'))).toBe(true);
    expect(Object.keys(v2.body.paths)).toEqual(
      expect.arrayContaining(['/authenticate', '/refresh-token', '/v2/authenticate']),
    );
    // One scheme per credential kind, all on the same header (V2 has no shop-only operation left
    // out: shop tokens read V2 orders and administer V2 too).
    for (const scheme of ['shopToken', 'merchantToken', 'vendorToken']) {
      expect(v2.body.components.securitySchemes[scheme]).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'x-access-token',
      });
    }
    expect(Object.keys(v1.body.components.securitySchemes)).toEqual(['shopToken']);
    expect(v1.body.paths['/v1/authenticate'].post.security).toEqual([]);
    expect(v2.body.paths['/v2/orders'].get.security).toEqual([{ shopToken: [] }, { vendorToken: [] }]);
    expect(v1.body.servers.map((s: { url: string }) => s.url)).toEqual(['/']);
    const titles = {
      '/docs/v1': 'Marketplace Admin API v1 — Swagger UI',
      '/docs/v2': 'Marketplace Admin API V2 (preview) — Swagger UI',
    };
    for (const [ui, title] of Object.entries(titles)) {
      const page = await t.api.get(ui);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<title>${title}</title>`);
    }
  });
});
