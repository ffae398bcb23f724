/* eslint-disable @typescript-eslint/no-explicit-any */
import { DOCUMENT_READER } from '../../src/documents/document.types';
import { startApp, TestApp } from '../support/app';
import { cents, divHalfUp, fmt, line } from '../support/cents';
import { documentView, FixtureDocuments, party } from '../support/document-fixtures';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { createVendor } from '../support/payout-fixtures';
import { linesWith, pdfText, words } from '../support/pdf-text';
import { DAY, HOUR } from '../support/test-clock';
import { vendorKeyToken } from '../support/vendor-keys';
import { deliver, platformId, shopifyOrder } from '../support/webhooks';

interface Pdf {
  status: number;
  type: string | null;
  disposition: string | null;
  bytes: Buffer;
  json: any;
}

/**
 * Document PDFs and signed links (DESIGN §14) over HTTP: the PDF routes for each credential, the
 * tenancy of every route (another shop's or vendor's id → 404), and a link's life (works without a
 * token, refuses a changed link with 403 and an expired one with 410). Documents come from a
 * test-only DocumentReader (the documents store is another module); orders arrive as webhooks.
 */
describe('document PDFs and signed links (e2e)', () => {
  let t: TestApp;
  const docs = new FixtureDocuments();
  let shop: TestShop;
  let other: TestShop;
  let merchant: string;
  let a: { _id: string; vendorName: string };
  let b: { _id: string; vendorName: string };
  let tokA: string; // a vendor key with a scope unrelated to documents: documents need none
  let tokB: string;
  const order1 = platformId(); // lines of A (two) and B (one)
  const order2 = platformId(); // a line of B only
  const order3 = platformId(); // A's, no invoice issued
  // A's commission at 10 % and 19 % tax on it, per order line (the oracle, BigInt cents)
  const aLines = [line('50.00', 2, 10n), line('19.99', 1, 10n)];
  const aNet = aLines.reduce((s, l) => s + l.commission, 0n);
  const aTax = divHalfUp(aNet * 19n, 100n);
  let invA: ReturnType<typeof documentView>;
  let invB: ReturnType<typeof documentView>;
  let stmtA: ReturnType<typeof documentView>;
  let foreign: ReturnType<typeof documentView>;

  const get = async (path: string, token?: string): Promise<Pdf> => {
    const res = await fetch(t.url + path, { headers: token ? { 'x-access-token': token } : {} });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type');
    return {
      status: res.status,
      type,
      disposition: res.headers.get('content-disposition'),
      bytes,
      json: type?.includes('json') ? JSON.parse(bytes.toString()) : null,
    };
  };

  beforeAll(async () => {
    process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-docpdf-${process.pid}`;
    t = await startApp((builder) => builder.overrideProvider(DOCUMENT_READER).useValue(docs));
    shop = await createShop(t, 'docpdf');
    other = await createShop(t, 'docpdf-other');
    merchant = (await createMerchantKey(t, shop)).token;
    a = await createVendor(t, shop, 'Docs Alpha');
    b = await createVendor(t, shop, 'Docs Beta');
    tokA = (await vendorKeyToken(t, shop, a._id, ['products:read'])).token;
    tokB = (await vendorKeyToken(t, shop, b._id, ['products:read'])).token;
    const legal = await t.api.put(
      '/v1/shop/legal',
      {
        legalName: 'Docs Market GmbH',
        address: { line1: '5 Harbour Road', city: 'Bremen', postalCode: '28195', country: 'DE' },
        vatId: 'DE999999999',
      },
      { token: shop.token },
    );
    expect(legal.status).toBe(200);
    await deliver(t, shop, 'orders/create', {
      ...shopifyOrder({
        id: order1,
        name: '#D-1001',
        createdAt: new Date('2026-11-03T10:00:00Z'),
        financialStatus: 'paid',
        lineItems: [
          { title: 'Canvas tote', sku: 'TOTE-1', vendor: 'Docs Alpha', price: '50.00', quantity: 2 },
          { title: 'Linen scarf', sku: 'SCARF-7', vendor: 'Docs Alpha', price: '19.99', quantity: 1 },
          { title: 'Brass lamp', sku: 'LAMP-3', vendor: 'Docs Beta', price: '80.00', quantity: 1 },
        ],
      }),
      shipping_address: {
        name: 'Erika Mustermann',
        address1: '7 Linden Allee',
        address2: 'Hinterhaus',
        city: 'Leipzig',
        zip: '04109',
        province: 'Saxony',
        country: 'Germany',
      },
    });
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({
        id: order2,
        lineItems: [{ title: 'Lamp', vendor: 'Docs Beta', price: '10.00', quantity: 1 }],
      }),
    );
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({
        id: order3,
        lineItems: [{ title: 'Pin', vendor: 'Docs Alpha', price: '3.00', quantity: 1 }],
      }),
    );
    invA = docs.add(
      documentView({
        shopId: shop.shopId,
        vendorId: a._id,
        type: 'commission_invoice',
        number: 'INV-2026-000007',
        lines: [
          {
            orderId: String(order1),
            orderName: '#D-1001',
            orderDate: '2026-11-03T10:00:00.000Z',
            description: 'Commission on 2 lines',
            net: fmt(aNet),
            tax: fmt(aTax),
            total: fmt(aNet + aTax),
          },
        ],
        totals: { net: fmt(aNet), tax: fmt(aTax), total: fmt(aNet + aTax) },
        issuer: party('Docs Market GmbH', 'DE999999999'),
        recipient: party('Alpha Trading SARL', 'FR40303265045'),
      }),
    );
    const bLine = { orderId: String(order1), orderName: '#D-1001', orderDate: '2026-11-03T10:00:00.000Z' };
    invB = docs.add(
      documentView({
        shopId: shop.shopId,
        vendorId: b._id,
        type: 'commission_invoice',
        number: 'INV-2026-000008',
        lines: [{ ...bLine, description: 'Commission', net: '8.00', tax: '1.52', total: '9.52' }],
        totals: { net: '8.00', tax: '1.52', total: '9.52' },
      }),
    );
    stmtA = docs.add(
      documentView({
        shopId: shop.shopId,
        vendorId: a._id,
        type: 'payout_statement',
        number: null,
        lines: [{ ...bLine, description: 'Sales', net: '119.99', tax: '0.00', total: '119.99' }],
        totals: { net: '119.99', tax: '0.00', total: '119.99' },
      }),
    );
    foreign = docs.add(
      documentView({
        shopId: other.shopId,
        vendorId: a._id,
        type: 'commission_invoice',
        number: 'INV-2026-000001',
        lines: [],
        totals: { net: '0.00', tax: '0.00', total: '0.00' },
      }),
    );
  }, 60000);

  afterAll(async () => {
    await t?.close();
  });

  describe('GET …/documents/{id}/pdf', () => {
    it('v1, shop token: a PDF download named by its number, carrying the number, both parties and the figures', async () => {
      const res = await get(`/v1/documents/${invA.id}/pdf`, shop.token);
      expect(res.status).toBe(200);
      expect(res.type).toBe('application/pdf');
      expect(res.disposition).toBe('attachment; filename="INV-2026-000007.pdf"');
      expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(res.bytes);
      expect(text).toContain('INV-2026-000007');
      expect(text).toContain('Docs Market GmbH');
      expect(text).toContain('Alpha Trading SARL');
      expect(words(linesWith(text, '#D-1001')[0]).slice(-3)).toEqual([
        fmt(aNet),
        fmt(aTax),
        fmt(aNet + aTax),
      ]);
      expect(words(linesWith(text, 'Total (USD)')[0]).pop()).toBe(fmt(aNet + aTax));
      // 10 % of 100.00 + 19.99 = 12.00 (11.999 → 12.00), tax 19 % = 2.28: the oracle's own figures
      expect([fmt(aNet), fmt(aTax)]).toEqual(['12.00', '2.28']);
    });

    it('the same document renders to the same bytes each time (from its snapshot)', async () => {
      const [x, y] = [
        await get(`/v1/documents/${invA.id}/pdf`, shop.token),
        await get(`/v2/documents/${invA.id}/pdf`, shop.token),
      ];
      expect(x.bytes.equals(y.bytes)).toBe(true);
    });

    it('an unnumbered document is named by its type and id', async () => {
      const res = await get(`/v2/documents/${stmtA.id}/pdf`, shop.token);
      expect(res.status).toBe(200);
      expect(res.disposition).toBe(`attachment; filename="payout_statement-${stmtA.id}.pdf"`);
      expect(pdfText(res.bytes)).toContain('Payout statement');
    });

    it('a vendor token reads its own documents (no scope needed) at /documents and /v2/documents', async () => {
      for (const path of [`/documents/${invA.id}/pdf`, `/v2/documents/${invA.id}/pdf`]) {
        const res = await get(path, tokA);
        expect(res.status).toBe(200);
        expect(pdfText(res.bytes)).toContain('INV-2026-000007');
      }
    });

    it('another vendor’s document → 404 for a vendor token', async () => {
      for (const path of [`/documents/${invB.id}/pdf`, `/v2/documents/${invB.id}/pdf`]) {
        const res = await get(path, tokA);
        expect(res.status).toBe(404);
        expect(res.json.error).toMatchObject({ code: 'NOT_FOUND', message: 'Document not found' });
      }
      expect((await get(`/documents/${invB.id}/pdf`, tokB)).status).toBe(200);
    });

    it('another shop’s document, an unknown id and a malformed id → 404', async () => {
      expect((await get(`/v1/documents/${foreign.id}/pdf`, shop.token)).status).toBe(404);
      expect((await get(`/v2/documents/${foreign.id}/pdf`, shop.token)).status).toBe(404);
      expect((await get(`/documents/${foreign.id}/pdf`, tokA)).status).toBe(404);
      expect((await get(`/v1/documents/${invA.id}/pdf`, other.token)).status).toBe(404);
      expect((await get('/v1/documents/0000000000000000000000aa/pdf', shop.token)).status).toBe(404);
      expect((await get('/v1/documents/not-an-id/pdf', shop.token)).status).toBe(404);
    });

    it('a merchant token is refused (403) at v1 and V2; no token → 401', async () => {
      expect((await get(`/v1/documents/${invA.id}/pdf`, merchant)).status).toBe(403);
      expect((await get(`/v2/documents/${invA.id}/pdf`, merchant)).status).toBe(403);
      expect((await get(`/v2/documents/${invA.id}/pdf`)).status).toBe(401);
    });
  });

  describe('signed links', () => {
    afterEach(() => t.clock.reset());

    it('invoice: 201 {url, expiresAt}; the link serves the PDF without a token for 48 hours, then 410', async () => {
      const before = t.clock.now().getTime();
      const res = await t.api.post('/documents/invoice', { orderId: String(order1) }, { token: tokA });
      expect(res.status).toBe(201);
      const { url, expiresAt } = res.body.data;
      expect(url.startsWith(`${t.url}/documents/links/`)).toBe(true);
      const exp = Date.parse(expiresAt);
      expect(exp - before).toBeGreaterThanOrEqual(48 * HOUR);
      expect(exp - before).toBeLessThan(48 * HOUR + 60_000);
      const path = url.slice(t.url.length);
      const pdf = await get(path);
      expect(pdf.status).toBe(200);
      expect(pdf.type).toBe('application/pdf');
      expect(pdf.disposition).toBe('attachment; filename="INV-2026-000007.pdf"');
      expect(words(linesWith(pdfText(pdf.bytes), 'Total (USD)')[0]).pop()).toBe(fmt(aNet + aTax));
      t.clock.advance(47 * HOUR);
      expect((await get(path)).status).toBe(200);
      t.clock.advance(DAY);
      const gone = await get(path);
      expect(gone.status).toBe(410);
      expect(gone.json.error.code).toBe('GONE');
    });

    it('a changed link → 403 (another document, another vendor, a changed signature)', async () => {
      const res = await t.api.post('/v2/documents/invoice', { orderId: String(order1) }, { token: tokA });
      const path: string = res.body.data.url.slice(t.url.length);
      const [body, mac] = path.split('/').pop()!.split('.');
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
      const forge = (edit: (c: any) => void) => {
        const c = { ...claims };
        edit(c);
        return `/documents/links/${Buffer.from(JSON.stringify(c)).toString('base64url')}.${mac}`;
      };
      for (const bad of [
        forge((c) => (c.d = invB.id)),
        forge((c) => (c.vd = b._id)),
        forge((c) => (c.e = c.e + DAY)),
        `/documents/links/${body}.${mac.slice(0, -2)}AA`,
        '/documents/links/garbage',
      ]) {
        const r = await get(bad);
        expect(r.status).toBe(403);
        expect(r.json.error.code).toBe('FORBIDDEN');
      }
    });

    it('no invoice issued for the order yet → 409', async () => {
      const res = await t.api.post('/documents/invoice', { orderId: String(order3) }, { token: tokA });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({
        code: 'CONFLICT',
        message: 'no invoice has been issued for this order yet',
      });
    });

    it('packing slip: the vendor’s lines and the ship-to address, no price, none of another vendor’s lines', async () => {
      const res = await t.api.post('/documents/packing-slip', { orderId: String(order1) }, { token: tokA });
      expect(res.status).toBe(201);
      const pdf = await get(res.body.data.url.slice(t.url.length));
      expect(pdf.status).toBe(200);
      expect(pdf.disposition).toBe(`attachment; filename="packing-slip-${order1}.pdf"`);
      const text = pdfText(pdf.bytes);
      expect(words(linesWith(text, 'Canvas tote')[0])).toEqual(['TOTE-1', 'Canvas', 'tote', '2']);
      expect(words(linesWith(text, 'Linen scarf')[0])).toEqual(['SCARF-7', 'Linen', 'scarf', '1']);
      for (const part of [
        'Erika Mustermann',
        '7 Linden Allee',
        'Hinterhaus',
        '04109 Leipzig',
        'Saxony, Germany',
        '#D-1001',
      ]) {
        expect(text).toContain(part);
      }
      expect(text).not.toContain('Brass lamp');
      expect(text).not.toContain('LAMP-3');
      expect(text).not.toMatch(/\d+\.\d{2}\b/);
      expect(text).not.toMatch(/price|total|USD/i);
    });

    it('the shop token asks under /v2 with ?vendorId= (required: 422 without it)', async () => {
      const ok = await t.api.post(
        `/v2/documents/packing-slip?vendorId=${b._id}`,
        { orderId: String(order2) },
        { token: shop.token },
      );
      expect(ok.status).toBe(201);
      const text = pdfText((await get(ok.body.data.url.slice(t.url.length))).bytes);
      expect(text).toContain('Lamp');
      const inv = await t.api.post(
        `/v2/documents/invoice?vendorId=${a._id}`,
        { orderId: String(order1) },
        { token: shop.token },
      );
      expect(inv.status).toBe(201);
      const none = await t.api.post(
        '/v2/documents/packing-slip',
        { orderId: String(order2) },
        { token: shop.token },
      );
      expect(none.status).toBe(422);
      const badId = await t.api.post(
        '/v2/documents/packing-slip?vendorId=xyz',
        { orderId: String(order2) },
        { token: shop.token },
      );
      expect(badId.status).toBe(422);
      const badBody = await t.api.post(
        `/v2/documents/packing-slip?vendorId=${b._id}`,
        { orderId: 'abc' },
        { token: shop.token },
      );
      expect(badBody.status).toBe(422);
    });

    it('another vendor’s order, or naming another vendor → 404', async () => {
      const r1 = await t.api.post('/documents/packing-slip', { orderId: String(order2) }, { token: tokA });
      expect(r1.status).toBe(404);
      expect(r1.body.error.code).toBe('NOT_FOUND');
      expect(
        (await t.api.post('/documents/invoice', { orderId: String(order2) }, { token: tokA })).status,
      ).toBe(404);
      const r2 = await t.api.post(
        `/documents/packing-slip?vendorId=${b._id}`,
        { orderId: String(order1) },
        { token: tokA },
      );
      expect(r2.status).toBe(404);
      const r3 = await t.api.post(
        `/v2/documents/packing-slip?vendorId=${a._id}`,
        { orderId: String(order2) },
        { token: shop.token },
      );
      expect(r3.status).toBe(404);
    });

    it('another shop’s order → 404; a merchant token → 403', async () => {
      const cross = await t.api.post(
        `/v2/documents/packing-slip?vendorId=${a._id}`,
        { orderId: String(order1) },
        { token: other.token },
      );
      expect(cross.status).toBe(404);
      const crossInv = await t.api.post(
        `/v2/documents/invoice?vendorId=${a._id}`,
        { orderId: String(order1) },
        { token: other.token },
      );
      expect(crossInv.status).toBe(404);
      for (const path of ['/v2/documents/invoice', '/v2/documents/packing-slip', '/documents/invoice']) {
        const r = await t.api.post(
          `${path}?vendorId=${a._id}`,
          { orderId: String(order1) },
          { token: merchant },
        );
        expect(r.status).toBe(403);
      }
    });
  });

  it('the oracle: half-up cents', () => {
    expect(divHalfUp(cents('0.35') * 3n * 10n, 100n)).toBe(11n);
  });
});
