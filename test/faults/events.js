'use strict';
// (e) Outbound events (issue 19): the API killed with kill -9 right after 200 vendor writes, while
// none of their events has been delivered (the receiver holds every request open), then restarted.
// Every vendor.created must reach the receiver with a 2xx (lost=0), and no webhook-id may ever
// arrive with two different bodies. Duplicated deliveries are allowed (at-least-once) and counted.
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const mongoose = require('mongoose');
const { json, shop, pool, until, log } = require('./harness');

/** A loopback receiver: holds requests open until `open()`, then answers 200; records every body. */
async function receiver() {
  const bodies = new Map(); // webhook-id → Set(body)
  const acked = new Map(); // webhook-id → 2xx answers
  const held = new Set();
  let answering = false;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      const body = Buffer.concat(chunks).toString('utf8');
      if (!bodies.has(id)) bodies.set(id, new Set());
      bodies.get(id).add(body);
      if (!answering) return held.add(res);
      acked.set(id, (acked.get(id) ?? 0) + 1);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    bodies,
    acked,
    held,
    open() {
      answering = true;
      for (const res of held) res.destroy(); // the killed process's connections: nobody waits on them
      held.clear();
    },
    close: () => new Promise((ok) => server.close(ok)),
  };
}

async function eventsScenario(stack, report) {
  const name = `events${randomBytes(2).toString('hex')}`;
  const env = {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0,1,2,5,10,30',
    INBOX_REDRIVE_AFTER_SECONDS: '5',
  };
  let api = await stack.api(name, env);
  const { base, port } = api;
  const s = await shop(stack, name, base);
  const h = { 'x-access-token': s.token };
  const r = await receiver();
  const ep = await json(
    'POST',
    `${base}/v1/webhook-endpoints`,
    { url: r.url, enabledEvents: ['vendor.created'] },
    h,
  );
  if (ep.status !== 200) throw new Error(`endpoint: ${ep.status} ${JSON.stringify(ep.body)}`);
  const vendors = [];
  await pool(
    8,
    Array.from({ length: 200 }, (_, i) => async () => {
      const res = await json(
        'POST',
        `${base}/v1/vendors`,
        { vendorName: `Evented ${i} ${name}`, commissionType: 'percentage', commissionAmount: 10 },
        h,
      );
      if (res.status !== 200) throw new Error(`vendor ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      vendors.push(res.body.vendor._id);
    }),
  );
  stack.children.delete(api.child);
  api.child.kill('SIGKILL');
  const killedAt = Date.now();
  const ackedAtKill = [...r.acked.values()].reduce((a, b) => a + b, 0);
  log(
    `kill -9 the API after 200 vendor writes (${r.bodies.size} events reached the receiver, held open; ${ackedAtKill} acknowledged)`,
  );
  r.open();
  api = await stack.api(name, { ...env, PORT: port });
  const conn = await stack.db(name);
  const events = conn.db.collection('events');
  const sid = new mongoose.Types.ObjectId(s.shopId);
  const recorded = await events.find({ shopId: sid, type: 'vendor.created' }).toArray();
  const idOfVendor = new Map(recorded.map((e) => [JSON.parse(e.body).data.object._id, e._id]));
  const missing = () => vendors.filter((v) => !r.acked.has(idOfVendor.get(v)));
  const drainMs = await until(
    'every vendor.created delivered',
    () => missing().length === 0,
    150_000,
    500,
  ).catch(() => null);
  const sinceKill = Date.now() - killedAt;
  const twoBodies = [...r.bodies.values()].filter((set) => set.size > 1).length;
  const deliveredTwice = [...r.acked.values()].filter((n) => n > 1).length;
  const deliveries = await conn.db
    .collection('event_deliveries')
    .countDocuments({ shopId: sid, status: 'succeeded' });
  await conn.close();
  await r.close();
  const lost = missing().length;
  report(
    '(e) API kill -9 after 200 vendor writes, events undelivered',
    {
      lost,
      twoBodies,
      eventsRecorded: `${idOfVendor.size}/200`,
      ackedAtKill,
      deliveredAfterRestartS: drainMs === null ? 'timeout' : (sinceKill / 1000).toFixed(1),
      deliveredTwice,
      succeededDeliveries: deliveries,
    },
    lost === 0 && twoBodies === 0 && idOfVendor.size === 200 && ackedAtKill === 0 && drainMs !== null,
  );
}

module.exports = { eventsScenario, receiver };
