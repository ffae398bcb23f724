import type { OutboundPolicy } from '../../src/common/http/outbound/outbound-http';
import { WebhookTargets } from '../../src/events/webhook-targets';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { Receiver } from '../support/receiver';
import { eventually } from '../support/webhooks';

/** The real policy, with private targets switchable by the test (create while allowed, deliver while not). */
class SwitchableTargets extends WebhookTargets {
  allowPrivate: boolean | null = null;
  override policy(): OutboundPolicy {
    const real = super.policy();
    return this.allowPrivate === null ? real : { ...real, allowPrivate: this.allowPrivate };
  }
}

/**
 * SSRF (issue 19): with WEBHOOK_ALLOW_PRIVATE_TARGETS unset, loopback, link-local (metadata) and
 * hosts resolving to private addresses are refused with 422 at creation, and refused again at
 * delivery (nothing reaches the receiver); a 307 is never followed.
 */
describe('outbound events: the target guard (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let targets: SwitchableTargets;
  let receiver: Receiver;
  let elsewhere: Receiver;
  const saved = { ...process.env };

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,60';
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-ssrf-${process.pid}`;
    t = await startApp((b) =>
      b.overrideProvider(WebhookTargets).useFactory({
        factory: () =>
          (targets = new SwitchableTargets({ production: false, allowPrivateTargets: false } as never)),
      }),
    );
    shop = await createShop(t, 'events-ssrf');
    receiver = await Receiver.start();
    elsewhere = await Receiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await elsewhere?.close();
    await t?.close();
    process.env = saved;
  });

  const create = (url: string) => t.api.post('/v1/webhook-endpoints', { url }, { token: shop.token });

  it.each([
    ['loopback', () => receiver.url],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a host resolving to loopback', () => `http://localhost:${receiver.port}/hook`],
    ['private range', () => 'http://10.0.0.7/hook'],
  ])('refuses %s at creation with 422', async (_name, url) => {
    const res = await create(url());
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/url is not an allowed webhook target/);
    const list = await t.api.get('/v1/webhook-endpoints', { token: shop.token });
    expect(list.body.total).toBe(0);
  });

  it('refuses at delivery an endpoint created while private targets were allowed', async () => {
    targets.allowPrivate = true;
    const created = await create(receiver.url);
    expect(created.status).toBe(200);
    targets.allowPrivate = false;
    const ping = await t.api.post(`/v1/webhook-endpoints/${created.body.id}/test`, {}, { token: shop.token });
    expect(ping.status).toBe(200);
    const [d] = await eventually(async () => {
      const res = await t.api.get(`/v1/webhook-endpoints/${created.body.id}/deliveries`, {
        token: shop.token,
      });
      expect(res.body.deliveries[0].attempts).toHaveLength(1);
      return res.body.deliveries;
    });
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^address: /) });
    expect(receiver.received).toHaveLength(0);
  });

  it('does not follow a 307 to another port', async () => {
    targets.allowPrivate = true;
    receiver.answer = () => ({ status: 307, headers: { location: elsewhere.url } });
    const created = await create(receiver.url);
    const ping = await t.api.post(`/v1/webhook-endpoints/${created.body.id}/test`, {}, { token: shop.token });
    expect(ping.status).toBe(200);
    const [d] = await eventually(async () => {
      const res = await t.api.get(`/v1/webhook-endpoints/${created.body.id}/deliveries`, {
        token: shop.token,
      });
      expect(res.body.deliveries[0].attempts).toHaveLength(1);
      return res.body.deliveries;
    });
    expect(d.attempts[0].statusCode).toBe(307);
    expect(d.status).toBe('pending'); // a 3xx is a failed attempt: retried on the schedule
    expect(receiver.received).toHaveLength(1);
    await new Promise((ok) => setTimeout(ok, 300));
    expect(elsewhere.received).toHaveLength(0);
  });
});
