import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { getModelToken } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Shop } from '../../src/shops/shop.schema';
import { ShopsService } from '../../src/shops/shops.service';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { createVendor, seedOrder } from '../support/payout-fixtures';

/** A loopback HTTP server that records every request and answers as the test says. */
class Recorder {
  server!: Server;
  url = '';
  hits: Array<{ method: string; path: string; token: string | undefined }> = [];
  answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');

  async start() {
    this.server = createServer((req, res) => {
      this.hits.push({
        method: req.method ?? '',
        path: req.url ?? '',
        token: req.headers['x-shopify-access-token'] as string | undefined,
      });
      req.resume();
      req.on('end', () => this.answer(req, res));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** A loopback address per run: shop domains are unique in the database the runs share. */
const octet = () => 1 + Math.floor(Math.random() * 250);
const ERROR_ID = /\(errorId [0-9a-f-]{36}\)$/;
const REMOTE_SECRET = 'REMOTE-INTERNAL-DETAIL-7f3a';

/**
 * Issue 18, item 3: the Shopify adapter fetches only the platform. The stand-in plays the platform
 * at SHOPIFY_API_BASE_URL on loopback (allowed outside production, README "Outbound HTTP policy");
 * a second loopback server is where a redirect points.
 */
describe('security: the store-platform adapter fetches only the platform (e2e)', () => {
  const platform = new Recorder();
  const elsewhere = new Recorder();
  let t: TestApp;
  let shop: TestShop;
  let vendor: { _id: string; vendorName: string };
  const token = 'shpat_security_token_0123456789';

  const fulfil = (ids: string[], s: TestShop = shop) =>
    t.api.post(
      '/v1/fulfillments',
      {
        trackingNumber: '1Z1',
        shippingCarrier: 'UPS',
        trackingUrl: 'https://ups.example/1Z1',
        lineItemsToFulfill: ids,
      },
      { token: s.token },
    );
  const oneLine = async (s: TestShop = shop) =>
    (
      await seedOrder(t, s, {
        createdAt: new Date('2025-06-01T10:00:00Z'),
        lines: [{ vendor: vendor.vendorName, price: 10 }],
      })
    ).ids;

  beforeAll(async () => {
    await platform.start();
    await elsewhere.start();
    process.env.SHOPIFY_API_BASE_URL = platform.url;
    t = await startApp();
    shop = await createShop(t, 'sec-out');
    vendor = await createVendor(t, shop, 'Outbound Vendor');
    const set = await t.api.put(
      '/v1/shop/platform',
      { platform: 'shopify', accessToken: token },
      { token: shop.token },
    );
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await platform.stop();
    await elsewhere.stop();
    delete process.env.SHOPIFY_API_BASE_URL;
  });
  beforeEach(() => {
    platform.hits = [];
    elsewhere.hits = [];
  });

  it('a 307 to another loopback port is not followed: nothing arrives there, the caller gets our error', async () => {
    platform.answer = (_req, res) => {
      res.writeHead(307, { location: `${elsewhere.url}/admin/api/2025-01/graphql.json` });
      res.end(REMOTE_SECRET);
    };
    const [id] = await oneLine();
    const res = await fulfil([id]);
    expect(res.status).toBe(200);
    expect(platform.hits).toHaveLength(1);
    expect(elsewhere.hits).toHaveLength(0); // no second request, no token handed on
    expect(res.body.fulfillments[0]).toEqual({
      type: 'error',
      lineItemId: id,
      message: expect.stringMatching(/^The store platform answered with a redirect, which is not followed/),
    });
    expect(res.body.fulfillments[0].message).toMatch(ERROR_ID);
    expect(res.text).not.toContain(REMOTE_SECRET);
  });

  it('an oversized answer is cut: our error, not the remote body', async () => {
    const pad = REMOTE_SECRET + 'x'.repeat(2 * 1024 * 1024);
    platform.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { order: null }, pad }));
    };
    const [id] = await oneLine();
    const res = await fulfil([id]);
    expect(res.body.fulfillments[0].message).toMatch(
      /^The store platform answered with more data than allowed/,
    );
    expect(res.body.fulfillments[0].message).toMatch(ERROR_ID);
    expect(res.text.length).toBeLessThan(2000);
  });

  it('remote status text, bodies and GraphQL messages never reach the caller', async () => {
    const answers: Array<[number, unknown]> = [
      [500, { errors: REMOTE_SECRET }],
      [200, { errors: [{ message: REMOTE_SECRET }] }],
      [200, 'not json ' + REMOTE_SECRET],
      [
        200,
        {
          data: {
            order: {
              id: 'gid://shopify/Order/1',
              fulfillmentOrders: { nodes: [] },
            },
          },
        },
      ],
    ];
    for (const [status, body] of answers) {
      platform.answer = (_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const [id] = await oneLine();
      const res = await fulfil([id]);
      expect(res.body.fulfillments[0].type).toBe('error');
      expect(res.text).not.toContain(REMOTE_SECRET);
      if (status !== 200 || typeof body === 'string' || 'errors' in (body as object))
        expect(res.body.fulfillments[0].message).toMatch(ERROR_ID);
    }
  });

  it('platform calls of one request run 4 at a time (bounded concurrency under one deadline)', async () => {
    let inFlight = 0;
    let peak = 0;
    platform.answer = (_req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: { order: null } }));
      }, 250);
    };
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(...(await oneLine()));
    const started = Date.now();
    const res = await fulfil(ids);
    expect(res.body.fulfillments).toHaveLength(10);
    expect(
      res.body.fulfillments.every((f: { message: string }) => /does not know order/.test(f.message)),
    ).toBe(true);
    expect(platform.hits).toHaveLength(10);
    expect(peak).toBe(4);
    expect(Date.now() - started).toBeLessThan(10 * 250);
  });

  it('an IP-literal or non-platform shop domain is refused when the shop is created', async () => {
    const shops = t.app.get(ShopsService);
    for (const domain of [
      '127.0.0.1',
      '169.254.169.254',
      '[::1]',
      '10.0.0.5',
      'evil.example.com',
      'a.myshopify.com.evil.example',
    ]) {
      await expect(shops.create({ domain })).rejects.toMatchObject({ status: 422 });
    }
  });

  it('an IP-literal shop domain already stored is refused at call time: nothing is sent', async () => {
    const s = await createShop(t, 'sec-out-ip');
    const v = await createVendor(t, s, 'Ip Vendor');
    await t.api.put('/v1/shop/platform', { platform: 'shopify', accessToken: token }, { token: s.token });
    const [id] = (
      await seedOrder(t, s, {
        createdAt: new Date('2025-06-01T10:00:00Z'),
        lines: [{ vendor: v.vendorName, price: 10 }],
      })
    ).ids;
    // A row written before the rule (or by hand): the domain is an IP literal.
    await t.app
      .get<Model<Shop>>(getModelToken(Shop.name))
      .updateOne(
        { _id: new Types.ObjectId(s.shopId) },
        { $set: { domain: `127.${octet()}.${octet()}.${octet()}` } },
      )
      .exec();
    platform.answer = (_req, res) => res.end('{}');
    const res = await fulfil([id], s);
    expect(res.body.fulfillments[0].message).toMatch(
      /^The shop domain is not a store-platform domain; nothing was sent/,
    );
    expect(res.body.fulfillments[0].message).toMatch(ERROR_ID);
    expect(platform.hits).toHaveLength(0);
  });
});
