import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookupSpy } from '../../../../test/fakes/dns.fake';
import { isPublicAddress } from './address-policy';
import type { HostResolver } from './host-resolver';
import { assertOutboundUrl, OutboundHttpError, outboundRequest, type OutboundPolicy } from './outbound-http';

const loopbackOk: OutboundPolicy = { allowHttp: true, allowPrivate: true, timeoutMs: 2_000 };

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::',
    'not-an-ip',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['8.8.8.8', '1.1.1.1', '23.227.38.65', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'accepts %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('outboundRequest', () => {
  const servers: Server[] = [];
  const hits: string[] = [];
  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  afterAll(async () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  async function refusal(p: Promise<unknown>): Promise<string> {
    try {
      await p;
    } catch (err) {
      expect(err).toBeInstanceOf(OutboundHttpError);
      return (err as OutboundHttpError).reason;
    }
    throw new Error('expected a refusal');
  }

  it('posts the body and returns the answer', async () => {
    const base = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () =>
        res.writeHead(201, { 'x-echo': req.headers['x-test'] as string }).end(`got ${body}`),
      );
    });
    const res = await outboundRequest(
      { method: 'POST', url: `${base}/x`, headers: { 'x-test': 'yes' }, body: 'hi' },
      loopbackOk,
    );
    expect(res.status).toBe(201);
    expect(res.headers['x-echo']).toBe('yes');
    expect(res.body.toString()).toBe('got hi');
  });

  it('never follows a redirect: the 307 is the answer and the other port sees nothing', async () => {
    const other = await serve((req, res) => {
      hits.push(req.url ?? '');
      res.end('reached');
    });
    const base = await serve((_req, res) => res.writeHead(307, { location: `${other}/stolen` }).end());
    const res = await outboundRequest({ method: 'POST', url: `${base}/hook`, body: '{}' }, loopbackOk);
    expect(res.status).toBe(307);
    expect(hits).toEqual([]);
  });

  it('refuses loopback and private targets unless the policy allows them, by literal and by name', async () => {
    const base = await serve((_req, res) => res.end('ok'));
    const strict: OutboundPolicy = { allowHttp: true, allowPrivate: false };
    expect(await refusal(outboundRequest({ method: 'GET', url: base }, strict))).toBe('address');
    const port = new URL(base).port;
    expect(await refusal(outboundRequest({ method: 'GET', url: `http://localhost:${port}/` }, strict))).toBe(
      'address',
    );
    expect(await refusal(assertOutboundUrl('http://169.254.169.254/latest/meta-data', strict))).toBe(
      'address',
    );
    expect(await refusal(assertOutboundUrl('http://[::ffff:127.0.0.1]/', strict))).toBe('address');
  });

  it('refuses http when only https is allowed, credentials in the URL, and hosts the policy refuses', async () => {
    const httpsOnly: OutboundPolicy = { allowHttp: false, allowPrivate: true };
    expect(await refusal(outboundRequest({ method: 'GET', url: 'http://example.com/' }, httpsOnly))).toBe(
      'url',
    );
    expect(await refusal(outboundRequest({ method: 'GET', url: 'file:///etc/passwd' }, loopbackOk))).toBe(
      'url',
    );
    expect(
      await refusal(outboundRequest({ method: 'GET', url: 'https://u:p@example.com/' }, loopbackOk)),
    ).toBe('url');
    const shopifyOnly: OutboundPolicy = { ...loopbackOk, allowHost: (h) => h.endsWith('.myshopify.com') };
    expect(await refusal(outboundRequest({ method: 'GET', url: 'https://evil.example/' }, shopifyOnly))).toBe(
      'host',
    );
  });

  it('cuts an oversized answer and times out a hanging one', async () => {
    const big = await serve((_req, res) => res.end(Buffer.alloc(64 * 1024, 'a')));
    expect(
      await refusal(outboundRequest({ method: 'GET', url: big }, { ...loopbackOk, maxResponseBytes: 1024 })),
    ).toBe('too_large');
    const hang = await serve(() => undefined);
    const started = Date.now();
    expect(
      await refusal(outboundRequest({ method: 'GET', url: hang }, { ...loopbackOk, timeoutMs: 300 })),
    ).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a refused connection as a network failure', async () => {
    const base = await serve((_req, res) => res.end());
    await new Promise((r) => servers.pop()!.close(r));
    expect(await refusal(outboundRequest({ method: 'GET', url: base }, loopbackOk))).toBe('network');
  });

  /**
   * Issue 28: names resolve through c-ares (the policy's resolver, else the process's), never
   * `dns.lookup`, whose getaddrinfo holds a libuv pool thread (shared with argon2 and file I/O)
   * for as long as a slow name takes. Every address a name resolves to is still checked.
   */
  it('resolves names without dns.lookup, through the policy resolver, and checks every address', async () => {
    const base = await serve((_req, res) => res.end('ok'));
    const port = new URL(base).port;
    const lookup = lookupSpy(); // after listen(): the test server's own bind looks its host up
    try {
      const asked: string[] = [];
      const resolver: HostResolver = {
        resolve: async (host) => {
          asked.push(host);
          return host === 'mixed.example'
            ? [
                { address: '93.184.216.34', family: 4 },
                { address: '10.0.0.7', family: 4 },
              ]
            : [{ address: '127.0.0.1', family: 4 }];
        },
      };
      const res = await outboundRequest(
        { method: 'GET', url: `http://hooks.example:${port}/` },
        { ...loopbackOk, resolver },
      );
      expect(res.body.toString()).toBe('ok');
      expect(
        (await outboundRequest({ method: 'GET', url: `http://localhost:${port}/` }, loopbackOk)).status,
      ).toBe(200);
      await assertOutboundUrl(`http://localhost:${port}/`, loopbackOk);
      const strict: OutboundPolicy = { allowHttp: true, allowPrivate: false, resolver };
      expect(await refusal(assertOutboundUrl('https://mixed.example/', strict))).toBe('address');
      expect(
        await refusal(outboundRequest({ method: 'GET', url: `http://mixed.example:${port}/` }, strict)),
      ).toBe('address');
      expect(asked).toEqual(['hooks.example', 'mixed.example', 'mixed.example']);
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      lookup.mockRestore();
    }
  });
});
