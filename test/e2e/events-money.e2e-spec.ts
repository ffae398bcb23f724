import { startApp, TestApp } from '../support/app';
import { createMerchantKey, createShop, TestShop } from '../support/factory';
import { listenForEvents, Receiver } from '../support/receiver';
import { amount, day, payoutOf, refundScenario, share } from '../support/refund-scenario';
import { shopifyRefund } from '../support/refunds';

/**
 * The events of orders, line items and money (issue 19 on top of issue 17), received by a real
 * HTTP receiver and verified with `standardwebhooks`; figures checked to the cent against the
 * BigInt-cents oracle of the refund scenario, `data.object` against the GET of the resource.
 */
describe('order and money events (e2e)', () => {
  let t: TestApp;
  let stranger: TestShop;
  const receivers: Receiver[] = [];
  const saved = { ...process.env };

  const listen = (shop: TestShop) => listenForEvents(t, shop, receivers);

  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = 'true';
    process.env.WEBHOOK_RETRY_SCHEDULE = '0,0.3,0.3,0.3';
    process.env.QUEUE_PREFIX = `${saved.QUEUE_PREFIX ?? 'mp-test'}-evm-${process.pid}`;
    t = await startApp();
    stranger = await createShop(t, 'evm-stranger');
  });

  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
    process.env = saved;
  });

  it('order.received, payout_batch.paid, refund.recorded (negative), balance.negative once, carried_forward, paid again', async () => {
    const s = await refundScenario(t, 'evm-after');
    const hooks = await listen(s.shop);
    const foreign = await listen(stranger);
    const vendorId = s.vendors[0]._id;

    const o = await s.order([{ price: '50.00', quantity: 2 }], day(-10));
    await s.send('orders/create', o);
    const [received] = await hooks.arrived('order.received');
    expect(received.data.object).toMatchObject({
      orderId: String(o.id),
      lineItemCount: 1,
      vendors: [{ vendorId, lineItemCount: 1 }],
    });
    // a second payload of the same order is not a new order
    await s.send('orders/updated', { ...o, updated_at: new Date(Date.now() + 1000).toISOString() });

    const first = await s.batch(day(-8));
    const sale = payoutOf('50.00', 2, 10); // 90.00
    expect(first).toMatchObject({ status: 'completed', total: amount(sale) });
    const [paid] = await hooks.arrived('payout_batch.paid');
    // The batch as GET shows it, but for `transfer`: the event comes as the batch settles, before its
    // hand-over to the payout rail (the transfer is announced by transfer.* events).
    expect(paid.data.object).toEqual({ ...first, transfer: undefined });

    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-4),
        lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      }),
    );
    const clawback = share(sale, 1, 2); // −45.00
    const [refund] = await hooks.arrived('refund.recorded');
    expect(refund.data.object).toMatchObject({ orderId: String(o.id), vendorId, payout: amount(clawback) });
    expect(refund.data.object.refundRows).toHaveLength(1);
    expect(refund.data.object.refundRows[0]).toMatchObject({
      type: 'refund',
      vendorId,
      refundedQuantity: 1,
      payout: amount(clawback),
      sales: -50,
    });
    // the refund after the payout leaves the vendor owing: due −45.00 → one balance.negative
    const [negative] = await hooks.arrived('balance.negative');
    expect(negative.data.object).toMatchObject({ vendorId, due: amount(clawback), paidToDate: amount(sale) });

    await s.send('orders/create', await s.order([{ price: '20.00', quantity: 1 }], day(-4)));
    const second = await s.batch(day(-3));
    const net = clawback + payoutOf('20.00', 1, 10); // −45.00 + 18.00 = −27.00
    expect(second).toMatchObject({
      status: 'carried_forward',
      net: amount(net),
      closingBalance: amount(net),
    });
    const [carried] = await hooks.arrived('payout_batch.carried_forward');
    expect(second.transfer).toBeNull(); // a carried-forward batch never has one
    expect(carried.data.object).toEqual({ ...second, transfer: undefined });
    // still below zero since the refund: the same crossing, no second event
    expect(await s.balance()).toMatchObject({ due: amount(net) });
    await hooks.arrived('order.received', 2);
    expect(hooks.of('balance.negative')).toHaveLength(1);

    await s.send('orders/create', await s.order([{ price: '50.00', quantity: 1 }], day(-2)));
    const third = await s.batch(day(-1));
    expect(third).toMatchObject({ status: 'completed', total: amount(net + payoutOf('50.00', 1, 10)) });
    const paidTwice = await hooks.arrived('payout_batch.paid', 2);
    expect(paidTwice.map((e) => e.data.object._id).sort()).toEqual([first._id, third._id].sort());
    expect(await s.balance()).toMatchObject({ due: 0 });

    // every event once on the wire (no retries needed), each id unique; the other shop got none
    const ids = hooks.r.received.map((x) => x.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);
    await new Promise((ok) => setTimeout(ok, 300));
    expect(foreign.r.received).toHaveLength(0);
    // the events are listed for their own shop only
    const own = await t.api.get(`/v1/events/${negative.id}`, { token: s.shop.token });
    expect(own.status).toBe(200);
    expect((await t.api.get(`/v1/events/${negative.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('a second negative crossing after the balance went back to zero is a new balance.negative', async () => {
    const s = await refundScenario(t, 'evm-cross');
    const hooks = await listen(s.shop);
    const o = await s.order([{ price: '10.00', quantity: 1 }], day(-10));
    await s.send('orders/create', o);
    await s.batch(day(-9));
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: o.id,
        processedAt: day(-8),
        lines: [{ lineItemId: o.line_items[0].id, quantity: 1 }],
      }),
    );
    await hooks.arrived('balance.negative', 1);
    await s.send('orders/create', await s.order([{ price: '30.00', quantity: 1 }], day(-7)));
    expect(await s.batch(day(-6))).toMatchObject({
      status: 'completed',
      total: amount(payoutOf('30.00', 1, 10) - payoutOf('10.00', 1, 10)),
    });
    expect(await s.balance()).toMatchObject({ due: 0 });
    const p = await s.order([{ price: '20.00', quantity: 1 }], day(-5));
    await s.send('orders/create', p);
    await s.batch(day(-4));
    await s.send(
      'refunds/create',
      shopifyRefund({
        orderId: p.id,
        processedAt: day(-3),
        lines: [{ lineItemId: p.line_items[0].id, quantity: 1 }],
      }),
    );
    const twice = await hooks.arrived('balance.negative', 2);
    expect(twice.map((e) => e.data.object.due).sort()).toEqual(
      [amount(-payoutOf('10.00', 1, 10)), amount(-payoutOf('20.00', 1, 10))].sort(),
    );
  });

  it('a deduction that takes the due below zero is a balance.negative too (adjustments move the due)', async () => {
    const s = await refundScenario(t, 'evm-adjust');
    const hooks = await listen(s.shop);
    const mk = await createMerchantKey(t, s.shop);
    const o = await s.order([{ price: '10.00', quantity: 1 }], day(-3));
    await s.send('orders/create', o);
    // due 9.00; a deduction of 12.34 leaves −3.34
    const res = await t.api.post(
      '/v2/payout-adjustments',
      { vendorId: s.vendors[0]._id, amount: 12.34, type: 'DEDUCTION' },
      { token: mk.token },
    );
    expect(res.status).toBe(201);
    const due = payoutOf('10.00', 1, 10) - 1234n;
    const [negative] = await hooks.arrived('balance.negative');
    expect(negative.data.object).toMatchObject({ vendorId: s.vendors[0]._id, due: amount(due) });
    expect(await s.balance()).toMatchObject({ due: amount(due) });
    await s.reconcile();
  });

  it('line_items.updated per written line (data.object = the order read), line_items.recalculated with the job id', async () => {
    const s = await refundScenario(t, 'evm-lines');
    const hooks = await listen(s.shop);
    const o = await s.order([{ price: '40.00', quantity: 1 }], day(-2));
    await s.send('orders/create', o);
    const lineItemId = o.line_items[0].id;
    const res = await t.api.post(
      '/v1/lineitems/update',
      { items: [{ lineItemId, orderId: o.id, fields: { deduction: 1.5 }, recalculate: true }] },
      { token: s.shop.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.jobId).toEqual(expect.any(String));
    const [updated] = await hooks.arrived('line_items.updated');
    expect(updated.data.object).toMatchObject({ lineItemId: o.line_items[0].id, deduction: 1.5 });
    const [recalculated] = await hooks.arrived('line_items.recalculated');
    expect(recalculated.data.object).toMatchObject({ id: res.body.jobId, state: 'completed' });
    const job = await t.api.get(`/v1/jobs/${res.body.jobId}`, { token: s.shop.token });
    expect(recalculated.data.object).toEqual(job.body);
  });
});
