import { documentServers } from './swagger';
import { orderedTags, TAGS } from './tags';

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
