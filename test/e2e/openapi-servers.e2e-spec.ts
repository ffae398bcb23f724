import { startApp, TestApp } from '../support/app';

/** PUBLIC_URL reaches the served documents' `servers` (the committed copies carry only `/`). */
describe('OpenAPI servers with PUBLIC_URL', () => {
  let t: TestApp;
  const saved = process.env.PUBLIC_URL;
  beforeAll(async () => {
    process.env.PUBLIC_URL = 'https://api.example.com/';
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it('lists the relative server, then the public address', async () => {
    for (const doc of ['/docs/v1.json', '/docs/v2.json']) {
      const res = await t.api.get(doc);
      expect(res.body.servers.map((s: { url: string }) => s.url)).toEqual(['/', 'https://api.example.com']);
    }
  });
});
