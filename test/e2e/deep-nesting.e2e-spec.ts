/* eslint-disable @typescript-eslint/no-explicit-any */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';

const LEVELS = 2000;
const ID = '6740b9f1c2a4e15b3c9d0a21';

/** `{"<key>": [[[ … 1 … ]]]}`: `levels` of nesting in all (the object is the first). */
const deepBody = (key: string, levels: number) =>
  `{"${key}":${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}}`;

/** Every operation of the published documents (v1 and V2), with its document's schemas. */
function publishedOperations(): Array<{ doc: string; path: string; method: string; op: any; spec: any }> {
  const out: Array<{ doc: string; path: string; method: string; op: any; spec: any }> = [];
  for (const doc of ['v1', 'v2']) {
    const spec = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi', `${doc}.json`), 'utf8'));
    for (const [path, item] of Object.entries<any>(spec.paths))
      for (const [method, op] of Object.entries<any>(item)) out.push({ doc, path, method, op, spec });
  }
  return out;
}

/** Every operation with a request body in the published documents (v1 and V2). */
function bodyRoutes(): Array<[string, string, string, string]> {
  return bodyOperations().map(([doc, method, path, key]) => [doc, method, path, key]);
}

/** The same operations, with the statuses each documents. */
function bodyOperations(): Array<[string, string, string, string, string[]]> {
  return publishedOperations()
    .filter(({ op }) => op.requestBody)
    .map(({ doc, path, method, op, spec }) => {
      const schema = op.requestBody.content?.['application/json']?.schema ?? {};
      const ref = schema.$ref ? spec.components.schemas[schema.$ref.split('/').pop()] : schema;
      const key = Object.keys(ref?.properties ?? {})[0] ?? 'field';
      return [doc, method.toUpperCase(), path.replace(/\{[^}]+\}/g, ID), key, Object.keys(op.responses)];
    });
}

describe('deeply nested input is a 400, never a 500 (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;

  beforeAll(async () => {
    t = await startApp();
    shop = await createShop(t, 'deep');
  });
  afterAll(() => t.close());

  const routes = bodyRoutes();
  it('covers every body-taking route family of both documents', () => {
    const families = new Set(routes.map(([, , p]) => p.split('/').slice(0, 3).join('/')));
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect([...families]).toEqual(
      expect.arrayContaining([
        '/v1/vendors',
        '/v1/lineitems',
        '/webhooks/shopify',
        '/v2/vendors',
        '/authenticate',
      ]),
    );
  });

  it('each documents the 400 (and the 413) its body parser can answer', () => {
    const undocumented = bodyOperations()
      .filter(([, , , , statuses]) => !statuses.includes('400') || !statuses.includes('413'))
      .map(([doc, method, path]) => `${doc} ${method} ${path}`);
    expect(undocumented).toEqual([]);
  });

  it('every operation with query parameters documents the 422 its validation answers', () => {
    // The provider webhooks take no query of ours: `?shop=` only routes the signature check.
    const missing = publishedOperations()
      .filter(({ path }) => !path.startsWith('/webhooks/'))
      .filter(({ op }) => (op.parameters ?? []).some((p: any) => p.in === 'query') && !op.responses['422'])
      .map(({ doc, method, path }) => `${doc} ${method} ${path}`);
    expect(missing).toEqual([]);
  });

  it.each(routes)(
    `%s %s %s: a ${LEVELS}-level body → 400 in the route's shape`,
    async (doc, method, path, key) => {
      const res = await t.api.request(method, path, undefined, {
        raw: deepBody(key, LEVELS),
        token: shop.token,
      });
      expect(res.status).toBe(400);
      const message = expect.stringContaining('nested deeper than 32 levels');
      if (doc === 'v1') expect(res.body).toEqual({ error: message });
      else expect(res.body).toEqual({ success: false, error: { message, code: 'BAD_REQUEST' } });
    },
  );

  it('32 levels pass the guard (and meet authentication / validation as usual); 33 do not', async () => {
    expect(
      (await t.api.request('POST', '/v1/vendors', undefined, { raw: deepBody('vendorName', 32) })).status,
    ).toBe(401);
    expect(
      (
        await t.api.request('POST', '/v1/vendors', undefined, {
          raw: deepBody('vendorName', 32),
          token: shop.token,
        })
      ).status,
    ).toBe(422);
    expect(
      (await t.api.request('POST', '/v1/vendors', undefined, { raw: deepBody('vendorName', 33) })).status,
    ).toBe(400);
  });

  it('bracket-nested query strings deeper than 32 levels → 400 (v1 and V2)', async () => {
    const deep = `filter${'[x]'.repeat(LEVELS)}=1`;
    const v1 = await t.api.get(`/v1/payouts/batches?${deep}`, { token: shop.token });
    expect(v1.status).toBe(400);
    expect(v1.body).toEqual({ error: expect.stringContaining('query string is nested deeper than 32') });
    const v2 = await t.api.get(`/v2/orders?${deep}`, { token: shop.token });
    expect(v2.status).toBe(400);
    expect(v2.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
    // shallow brackets are just an unknown parameter (422), as before
    expect((await t.api.get('/v1/payouts/batches?filter[x]=1', { token: shop.token })).status).toBe(422);
  });
});
