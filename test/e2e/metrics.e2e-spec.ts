import { appConfig } from '../../src/config/configuration';
import { OpsServer } from '../../src/ops/ops-server';
import { startApp, TestApp } from '../support/app';
import { createShop, TestShop } from '../support/factory';
import { deliver, shopifyOrder } from '../support/webhooks';

describe('ops listener: /metrics and health on their own port (e2e)', () => {
  let t: TestApp;
  let shop: TestShop;
  let ops: string;

  beforeAll(async () => {
    // Queues of its own: the jobs it queues are processed here (job durations are per process).
    const own = { ...appConfig(), queuePrefix: `metrics-${process.pid}-${Date.now()}` };
    t = await startApp((b) => b.overrideProvider(appConfig.KEY).useValue(own));
    shop = await createShop(t, 'metrics');
    ops = t.app.get(OpsServer).url()!;
  });
  afterAll(() => t.close());

  it('listens apart from the API; the API port has no /metrics', async () => {
    expect(ops).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(ops).port).not.toBe(new URL(t.url).port);
    expect((await t.api.get('/metrics')).status).toBe(404);
  });

  it('exposes the named series in Prometheus text format, without authentication', async () => {
    await t.api.get(`/v1/vendors/6740b9f1c2a4e15b3c9d0a21`, { token: shop.token });
    await deliver(
      t,
      shop,
      'orders/create',
      shopifyOrder({ lineItems: [{ sku: 'M-1', price: '1.00', quantity: 1 }] }),
    );
    const res = await fetch(`${ops}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    // HTTP durations by method, route template (never the raw URL) and status
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/v1\/vendors\/:vendorId",status_code="404"\}/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/webhooks\/shopify",status_code="200"\} \d+/,
    );
    expect(text).not.toContain('6740b9f1c2a4e15b3c9d0a21');
    // per-queue job counts
    for (const queue of ['ingestion', 'recalculation', 'payouts', 'maintenance'])
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(text).toMatch(
          new RegExp(`marketplace_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+`),
        );
    // the inbox: deliveries by state and ingestion lag
    expect(text).toMatch(/marketplace_webhook_deliveries\{state="processed"\} [1-9]\d*/);
    expect(text).toMatch(/marketplace_webhook_deliveries\{state="received"\} \d+/);
    expect(text).toMatch(/marketplace_webhook_deliveries\{state="failed"\} \d+/);
    expect(text).toMatch(/marketplace_webhook_delivery_oldest_unprocessed_age_seconds [\d.e+-]+/);
    // job durations (this app runs processors) and the default process metrics
    expect(text).toMatch(
      /marketplace_job_duration_seconds_count\{queue="ingestion",name="shopify-webhook",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
  });

  it('answers liveness and readiness for the role', async () => {
    expect(await (await fetch(`${ops}/health`)).json()).toEqual({ status: 'ok', role: 'api' });
    const ready = await fetch(`${ops}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      details: { mongodb: { status: 'up' }, redis: { status: 'up' } },
    });
    expect((await fetch(`${ops}/nothing`)).status).toBe(404);
  });
});
