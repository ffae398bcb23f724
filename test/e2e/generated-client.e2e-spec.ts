import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ShopsService } from '../../src/shops/shops.service';
import { startApp, TestApp } from '../support/app';
import { uniqueDomain } from '../support/factory';

/**
 * The flow a client developer writes with types generated from the committed documents
 * (openapi-typescript → test/client/generated, openapi-fetch calls; compiled under tsc --strict by
 * scripts/client.sh), against the real services. Every answer is checked against its document's
 * schema, status list and required headers as it arrives (test/client/response-check.ts).
 */
const generated = join(__dirname, '..', 'client', 'generated', 'v1.ts');

describe('generated client (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!existsSync(generated))
      throw new Error('run `bash scripts/client.sh` first: the client types are generated');
    t = await startApp();
  });
  afterAll(() => t?.close());

  it('walks a shop from sign-in to payouts on v1 and administers it on V2', async () => {
    // Imported here so a missing generation fails with the message above, not a module error.
    const { clients } = await import('../client/clients');
    const { v1Flow } = await import('../client/v1-flow');
    const { v2Flow } = await import('../client/v2-flow');
    const shop = await t.app.get(ShopsService).create({ domain: uniqueDomain('client') });
    const c = clients(t.url);

    const result = await v1Flow(c, shop);
    await v2Flow(c, result);

    const seen = [...c.checkers.v1.seen, ...c.checkers.v2.seen].sort();
    console.log(`[generated-client] ${seen.length} operation/status pairs checked:\n  ${seen.join('\n  ')}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /v1/authenticate 200',
        'POST /webhooks/shopify 200',
        'GET /v1/orders/{orderId} 200',
        'GET /v2/orders 200',
        'POST /authenticate 200',
        'POST /v2/payout-adjustments 201',
      ]),
    );
  });
});
