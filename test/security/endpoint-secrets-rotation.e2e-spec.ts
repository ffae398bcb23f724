/* eslint-disable @typescript-eslint/no-explicit-any */
import { randomBytes } from 'node:crypto';
import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { Connection, Model, Types } from 'mongoose';
import { Webhook } from 'standardwebhooks';
import { secretsCommands } from '../../src/cli/secrets.commands';
import { keyId } from '../../src/common/secrets/data-cipher';
import { WebhookEndpoint } from '../../src/event-port/webhook-endpoint.schema';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { Receiver } from '../support/receiver';
import { eventually } from '../support/webhooks';

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');

/**
 * Issue 28, finding 7: `secrets:rotate` must re-seal the webhook endpoints' signing secrets too,
 * or dropping the previous key leaves every delivery signed with nothing. And a secret no key
 * opens must never produce a request: the attempt fails, logged, and nothing is sent.
 */
describe('security: webhook endpoint signing secrets across a key rotation (e2e)', () => {
  let t: TestApp | null = null;
  let shop: TestShop;
  const receivers: Receiver[] = [];
  const saved = { ...process.env };

  const boot = async (current: string, previous?: string) => {
    await t?.close();
    process.env.DATA_ENCRYPTION_KEY = current;
    if (previous) process.env.DATA_ENCRYPTION_KEY_PREVIOUS = previous;
    else delete process.env.DATA_ENCRYPTION_KEY_PREVIOUS;
    t = await startApp();
    return t;
  };
  const receiver = async () => {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  };
  const endpoint = async (url: string) => {
    const res = await t!.api.post('/v1/webhook-endpoints', { url }, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body as { id: string; secret: string };
  };
  const ping = async (endpointId: string) => {
    const res = await t!.api.post(`/v1/webhook-endpoints/${endpointId}/test`, {}, { token: shop.token });
    expect(res.status).toBe(200);
    return res.body as { eventId: string; deliveryId: string };
  };
  const arrived = (r: Receiver, eventId: string) =>
    eventually(async () => {
      const [x] = r.withId(eventId);
      expect(x).toBeDefined();
      return x;
    }, 10_000);
  const storedKeyIds = async (endpointId: string) => {
    const doc = await t!.app
      .get<Model<WebhookEndpoint>>(getModelToken(WebhookEndpoint.name))
      .findOne({ _id: new Types.ObjectId(endpointId), shopId: new Types.ObjectId(shop.shopId) })
      .lean<WebhookEndpoint>()
      .exec();
    return doc!.secrets.map((s) => s.secretEnc.split('.')[1]);
  };

  beforeAll(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3';
  });

  const dropDatabase = () => t!.app.get<Connection>(getConnectionToken()).dropDatabase();

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    if (t) await dropDatabase();
    await t?.close();
    process.env = saved;
  });

  it('secrets:rotate re-seals endpoint secrets: after dropping the old key a delivery verifies with the endpoint secret', async () => {
    // The rotation reads every shop of the database: start from an empty one (an earlier run's
    // endpoints were sealed under keys of their own).
    await boot(KEY_A);
    await dropDatabase();
    await boot(KEY_A);
    shop = await createShop(t!, 'sec-endpoints');
    const r1 = await receiver();
    const r2 = await receiver();
    const ep1 = await endpoint(r1.url);
    const ep2 = await endpoint(r2.url);
    // ep2 in its rotation overlap: two secrets sign, both must survive the key rotation
    const rotated = await t!.api.post(
      `/v1/webhook-endpoints/${ep2.id}/rotate-secret`,
      {},
      { token: shop.token },
    );
    expect(rotated.status).toBe(200);
    const ep2Fresh: string = rotated.body.secret;
    // an Idempotency-Key answer stored under KEY_A (sealed at rest, replayed for 24 h)
    const createVendor = () =>
      t!.api.post(
        '/v1/vendors',
        { vendorName: 'Rotation Vendor', commissionType: 'percentage', commissionAmount: 10 },
        { token: shop.token, headers: { 'idempotency-key': 'rotation-1' } },
      );
    const firstCreate = await createVendor();
    expect(firstCreate.status).toBe(200);

    await boot(KEY_B, KEY_A);
    const rotate = secretsCommands.find((c) => c.name === 'secrets:rotate')!;
    const report = (await rotate.run(t!.app, {})) as Record<string, any>;

    await boot(KEY_B); // the previous key dropped
    const p1 = await ping(ep1.id);
    const p2 = await ping(ep2.id);
    const got1 = await arrived(r1, p1.eventId);
    const got2 = await arrived(r2, p2.eventId);
    expect(new Webhook(ep1.secret).verify(got1.body, got1.headers)).toMatchObject({ type: 'ping' });
    expect(new Webhook(ep2Fresh).verify(got2.body, got2.headers)).toMatchObject({ type: 'ping' });
    expect(new Webhook(ep2.secret).verify(got2.body, got2.headers)).toMatchObject({ type: 'ping' });
    // the retry with the same key still gets the stored answer, not a mismatch error
    const retried = await createVendor();
    expect([retried.status, retried.body]).toEqual([firstCreate.status, firstCreate.body]);
    expect(report.idempotencyAnswers).toMatchObject({ resealed: 1, unreadable: 0, skipped: 0 });

    expect(report.webhookEndpoints).toEqual({
      endpoints: 2,
      resealed: 2,
      current: 0,
      unreadable: 0,
      skipped: 0,
    });
    const b = keyId(Buffer.from(KEY_B, 'hex'));
    expect(await storedKeyIds(ep1.id)).toEqual([b]);
    expect(await storedKeyIds(ep2.id)).toEqual([b, b]);
    // idempotent: a second run finds everything current (3 secrets)
    expect(((await rotate.run(t!.app, {})) as Record<string, any>).webhookEndpoints).toMatchObject({
      resealed: 0,
      current: 3,
    });
  });

  it('a secret no configured key opens never produces an unsigned request: the attempt fails, logged', async () => {
    await boot(KEY_A);
    shop = await createShop(t!, 'sec-endpoints-lost');
    const r = await receiver();
    const ep = await endpoint(r.url);
    await boot(KEY_B); // KEY_A gone without secrets:rotate: the endpoint's secret opens under no key
    const p = await ping(ep.id);
    const attempts = (n: number) =>
      eventually(async () => {
        const res = await t!.api.get(`/v1/webhook-endpoints/${ep.id}/deliveries`, { token: shop.token });
        expect(res.status).toBe(200);
        const d = res.body.deliveries.find((x: any) => x.id === p.deliveryId);
        expect(d?.attempts?.length).toBeGreaterThanOrEqual(n);
        return d.attempts as Array<Record<string, any>>;
      }, 10_000);
    const [first] = await attempts(1);
    // what reached the receiver, by its signature header: nothing at all
    expect(r.received.map((x) => x.headers['webhook-signature'] ?? '(none)')).toEqual([]);
    expect(first).toMatchObject({ statusCode: null, response: null });
    expect(first.error).toMatch(/^signing: .*cannot be unsealed.*nothing was sent$/);
    // retried on the schedule like any failed attempt, and still nothing is sent
    const later = await attempts(2);
    expect(later[1].error).toBe(first.error);
    expect(r.received).toEqual([]);
  });
});
