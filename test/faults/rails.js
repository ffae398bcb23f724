'use strict';
// (e) the payout rails scenario of the fault tests (issue 20), run by run.js: the API is killed
// with kill -9 right after Stripe accepted a transfer and before the API recorded the answer.
// The stateful Stripe stand-in runs in this (the runner's) process: on the first transfer it makes,
// it kills the API before answering, so the transfer exists at the provider and our database still
// says `sent`/`pending`. After a restart the transfer must complete with ONE provider-side transfer
// (the same idempotency key answers the first one). No hook in the production code.
const { createServer } = require('node:http');
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { json, shop, order, deliverUntilAcked, until, log } = require('./harness');

const STRIPE_KEY = 'sk_test_faultsRails0001abcd';

/** A stateful Stripe `POST /v1/transfers`: honours Idempotency-Key, counts what it created. */
function stripeStandin(onCreated) {
  const transfers = new Map();
  const byKey = new Map();
  const calls = [];
  /** Every GET (a follow-up lookup), by path. */
  const lookups = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const answer = (status, body) => {
        if (res.destroyed) return;
        const text = JSON.stringify(body);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      const url = new URL(req.url, 'http://standin');
      if (req.method === 'GET') {
        lookups.push(url.pathname);
        const one = /^\/v1\/transfers\/([^/]+)$/.exec(url.pathname);
        if (one) {
          const found = transfers.get(decodeURIComponent(one[1]));
          if (found) return answer(200, found);
          return answer(404, {
            error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such transfer' },
          });
        }
        if (url.pathname === '/v1/transfers') {
          const group = url.searchParams.get('transfer_group');
          const data = [...transfers.values()].filter((t) => !group || t.transfer_group === group);
          return answer(200, { object: 'list', url: '/v1/transfers', has_more: false, data });
        }
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/transfers') {
        return answer(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
      }
      const key = String(req.headers['idempotency-key'] ?? '');
      const earlier = byKey.get(key);
      if (earlier) {
        calls.push({ key, created: false });
        return answer(200, earlier);
      }
      const params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const t = {
        id: `tr_${randomBytes(8).toString('hex')}`,
        object: 'transfer',
        amount: Number(params.get('amount')),
        currency: params.get('currency'),
        destination: params.get('destination'),
        transfer_group: params.get('transfer_group'),
        metadata: Object.fromEntries(
          [...params].flatMap(([k, v]) => {
            const m = /^metadata\[(.+)\]$/.exec(k);
            return m ? [[m[1], v]] : [];
          }),
        ),
        livemode: false,
        reversed: false,
        amount_reversed: 0,
        created: Math.floor(Date.now() / 1000),
      };
      transfers.set(t.id, t);
      byKey.set(key, t);
      calls.push({ key, created: true });
      // The provider has made the transfer; the API has not heard back yet.
      await onCreated(key, t, res);
      answer(200, t);
    });
  });
  return {
    transfers,
    calls,
    lookups,
    createdPerKey: () => {
      const out = new Map();
      for (const c of calls) if (c.created) out.set(c.key, (out.get(c.key) ?? 0) + 1);
      return out;
    },
    start: () =>
      new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)),
      ),
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A shop with a Stripe key, one vendor on `stripe_connect` and one paid order of theirs (3 lines:
 * 10.00 × 1, 11.00 × 2, 12.00 × 3 = 68.00 sales, 10 % commission → 61.20), and its payout batch
 * triggered through the real engine (which then creates the batch's transfer).
 */
async function stripeShopWithBatch(stack, name, base) {
  const s = await shop(stack, name, base);
  const h = { 'x-access-token': s.token };
  const creds = await json('PUT', `${base}/v1/shop/payout-providers`, { stripeSecretKey: STRIPE_KEY }, h);
  if (creds.status !== 200) throw new Error(`providers: ${creds.status} ${JSON.stringify(creds.body)}`);
  const vendor = await json(
    'POST',
    `${base}/v1/vendors`,
    { vendorName: 'Fault Rails', commissionType: 'percentage', commissionAmount: 10 },
    h,
  );
  if (vendor.status !== 200) throw new Error(`vendor: ${vendor.status} ${JSON.stringify(vendor.body)}`);
  const vendorId = vendor.body.vendor?._id ?? vendor.body._id;
  const method = await json(
    'PUT',
    `${base}/v1/vendors/${vendorId}/payout-method`,
    { type: 'stripe_connect', accountId: 'acct_faultsRails' },
    h,
  );
  if (method.status !== 200) throw new Error(`method: ${method.status} ${JSON.stringify(method.body)}`);
  // 3 lines: 10.00 × 1, 11.00 × 2, 12.00 × 3 = 68.00 sales, 10 % commission → 61.20 paid
  const o = order(3, 'Fault Rails');
  const acked = await deliverUntilAcked(base, s, 'orders/create', o, Date.now() + 60_000);
  if (!acked.acked) throw new Error('order not acknowledged');
  const conn = await stack.db(name);
  const sid = new mongoose.Types.ObjectId(s.shopId);
  await until(
    'the order ingested',
    async () => (await conn.db.collection('line_items').countDocuments({ shopId: sid })) === 3,
    60_000,
    300,
  );
  const today = new Date().toISOString().slice(0, 10);
  const trigger = await json('POST', `${base}/v1/payouts/batches`, { vendorId, until: today }, h);
  if (trigger.status !== 202) throw new Error(`trigger: ${trigger.status} ${JSON.stringify(trigger.body)}`);
  const batchId = trigger.body.batchIds[0];
  return { s, h, conn, sid, batchId, vendorId };
}

/**
 * (e) a batch paid through the real engine; its Stripe transfer accepted by the provider, then the
 * API killed with kill -9 before recording the answer; after a restart the transfer ends `paid`
 * with exactly one provider-side transfer, one transfer per batch, and payouts:reconcile ok.
 */
async function railsScenario(stack, report) {
  const name = `rails${randomBytes(2).toString('hex')}`;
  let api = null;
  let killedAt = null;
  let stateAtKill = null;
  const stripe = stripeStandin(async (key, _t, res) => {
    if (killedAt !== null || !api) return;
    stack.children.delete(api.child);
    api.child.kill('SIGKILL');
    killedAt = Date.now();
    log(`kill -9 the API: Stripe made transfer ${_t.id} (key ${key}), answer not delivered`);
    res.destroy();
  });
  const stripeUrl = await stripe.start();
  // After the kill the transfer waits for the killed attempt's lease (TRANSFER_LEASE_SECONDS, 90 s by
  // default) and for the sweeper's quiet period, max(INBOX_REDRIVE_AFTER_SECONDS, 2 ×
  // TRANSFER_POLL_SECONDS) (120 s by default): 15 s and 10 s here (the stand-in answers at once).
  const env = {
    STRIPE_API_BASE_URL: stripeUrl,
    SWEEP_EVERY_SECONDS: '3',
    TRANSFER_LEASE_SECONDS: '15',
    INBOX_REDRIVE_AFTER_SECONDS: '10',
    TRANSFER_POLL_SECONDS: '5',
  };
  try {
    api = await stack.api(name, env);
    const { base, port } = api;
    const { s, conn, sid, batchId } = await stripeShopWithBatch(stack, name, base);
    await until('Stripe made the transfer and the API was killed', () => killedAt !== null, 60_000, 50);
    const transfersCol = conn.db.collection('transfers');
    const atKill = await transfersCol.findOne({ shopId: sid });
    stateAtKill = atKill?.state;
    api = await stack.api(name, { ...env, PORT: port });
    let transfer;
    const paidMs = await until(
      'the transfer is paid after the restart',
      async () => {
        transfer = await transfersCol.findOne({ shopId: sid });
        return transfer?.state === 'paid';
      },
      150_000,
      500,
    ).catch(() => null);
    const sinceKill = Date.now() - killedAt;
    const batch = await conn.db
      .collection('payout_batches')
      .findOne({ _id: new mongoose.Types.ObjectId(batchId) });
    const transfersOfBatch = await transfersCol.countDocuments({ shopId: sid });
    await conn.close();
    const key = String(transfer?._id ?? atKill?._id);
    const providerTransfers = stripe.createdPerKey().get(key) ?? 0;
    const totalProviderTransfers = [...stripe.createdPerKey().values()].reduce((a, b) => a + b, 0);
    const providerCalls = stripe.calls.filter((c) => c.key === key).length;
    const made = [...stripe.transfers.values()][0];
    let reconciled;
    try {
      reconciled = stack.cli(name, 'payouts:reconcile', '--domain', s.shopDomain).ok === true;
    } catch (err) {
      log(String(err));
      reconciled = false;
    }
    report(
      '(e) API kill -9 after the provider accepted a transfer',
      {
        paid_twice: Math.max(0, totalProviderTransfers - 1),
        providerTransfers,
        providerCalls,
        transfersOfBatch,
        stateAtKill,
        state: transfer?.state,
        providerIdMatches: transfer?.providerId === made?.id,
        amountCents: `${made?.amount}/${Math.round((batch?.total ?? 0) * 100)}`,
        batch: `${batch?.status} ${batch?.total}`,
        paidAfterKillS: paidMs === null ? 'timeout' : (sinceKill / 1000).toFixed(1),
        reconciled,
      },
      paidMs !== null &&
        totalProviderTransfers === 1 &&
        providerTransfers === 1 &&
        transfersOfBatch === 1 &&
        transfer?.providerId === made?.id &&
        made?.amount === 6120 &&
        batch?.total === 61.2 &&
        reconciled,
    );
  } finally {
    await stripe.stop();
  }
}

module.exports = { railsScenario, stripeStandin, stripeShopWithBatch, STRIPE_KEY };
