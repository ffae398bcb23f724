import type { OpenAPIObject } from '@nestjs/swagger';
import { documentServers } from './swagger';
import { orderedTags, TAGS } from './tags';
import { groupVendorSurface, tagGroups } from './vendor-surface';

describe('OpenAPI document parts', () => {
  it('servers: relative first, then PUBLIC_URL, each with its audience and environment', () => {
    expect(documentServers(undefined).map((s) => s.url)).toEqual(['/']);
    const servers = documentServers('https://api.example.com');
    expect(servers.map((s) => s.url)).toEqual(['/', 'https://api.example.com']);
    for (const s of servers)
      expect(s).toMatchObject({ 'x-internal': false, description: expect.any(String) });
  });

  it('tags: the used ones in workflow order, and none without a description', () => {
    expect(orderedTags(new Set(['Payouts', 'Authentication', 'Vendors'])).map((t) => t.name)).toEqual([
      'Authentication',
      'Vendors',
      'Payouts',
    ]);
    expect(TAGS.every((t) => (t.description ?? '').length > 20)).toBe(true);
    expect(() => orderedTags(new Set(['Mystery']))).toThrow(/Mystery/);
  });
});

describe('the vendor surface in the documents', () => {
  const op = (security: Array<Record<string, string[]>>, tags: string[]) => ({
    security,
    tags,
    responses: {},
  });

  it('moves the vendor surface (unprefixed, or vendor-only) under the Vendor · tags; shared /v2 ones stay', () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/orders': { get: op([{ vendorToken: [] }], ['Orders']) },
        '/v2/orders': { get: op([{ shopToken: [] }, { vendorToken: [] }], ['Orders']) },
        '/v2/balance': { get: op([{ vendorToken: [] }], ['Payouts']) },
        '/v2/vendors/me/payout-method': { get: op([{ vendorToken: [] }], ['Vendors']) },
        '/v2/vendor/authenticate': { post: op([], ['Authentication']) },
        '/fulfillments': { post: op([{ shopToken: [] }, { vendorToken: [] }], ['Fulfillments']) },
        '/refresh-token': { post: op([{ merchantToken: [] }, { vendorToken: [] }], ['Authentication']) },
      },
    } as unknown as OpenAPIObject;
    groupVendorSurface(doc);
    expect(doc.paths['/orders'].get!.tags).toEqual(['Vendor · Orders']);
    expect(doc.paths['/v2/orders'].get!.tags).toEqual(['Orders']);
    expect(doc.paths['/v2/balance'].get!.tags).toEqual(['Vendor · Payouts']);
    expect(doc.paths['/v2/vendors/me/payout-method'].get!.tags).toEqual(['Vendor · Profile']);
    expect(doc.paths['/v2/vendor/authenticate'].post!.tags).toEqual(['Authentication']);
    expect(doc.paths['/fulfillments'].post!.tags).toEqual(['Vendor · Fulfillments']);
    expect(doc.paths['/refresh-token'].post!.tags).toEqual(['Authentication']);
    const tags = orderedTags(new Set(['Orders', 'Vendor · Orders', 'Vendor · Payouts', 'Authentication']));
    expect(tags.map((t) => t.name)).toEqual([
      'Authentication',
      'Orders',
      'Vendor · Orders',
      'Vendor · Payouts',
    ]);
    expect(tagGroups(tags)).toEqual([
      { name: 'Operator (shop and merchant tokens)', tags: ['Authentication', 'Orders'] },
      { name: 'Vendor surface (vendor tokens)', tags: ['Vendor · Orders', 'Vendor · Payouts'] },
    ]);
  });
});
