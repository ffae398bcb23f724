'use strict';
// (f) the `sent`-state crash of a Stripe transfer (issue 28, finding 2), run by run.js as
// `rails-sent`: the API is killed with kill -9 at the crash point `transfer:provider-answer-written`
// (src/common/faults/crash-point.ts), right after the first write of Stripe's answer. A version that
// wrote `pending → sent` and then `sent → paid` dies between the two writes: the transfer is at the
// provider and our record says `sent`, which nothing could ever settle (Stripe's follow-up answered
// "pending" without asking). After the restart the transfer must end `paid` exactly once: one
// provider-side transfer, its id recorded, the batch's money to the cent, payouts:reconcile ok.
const mongoose = require('mongoose');
const { randomBytes } = require('node:crypto');
const { until, log } = require('./harness');
const { stripeStandin, stripeShopWithBatch } = require('./rails');

const CRASH_POINT = 'transfer:provider-answer-written';
/** After the restart: the lease (15 s), the sweeper's quiet period (10 s), a few sweeps and polls. */
const SETTLE_MS = 60_000;

/**
 * `legacy`: at the kill, the record is made what the two-write version left at that moment
 * (`sent`, its `tr_…` id, no settlement, no pending event) whatever this version wrote — an
 * upgrade over a transfer an earlier version stranded: the transfer sweeper's follow-up must ask
 * Stripe and settle it (on the two-write version the record is that already).
 */
async function railsSentScenario(stack, report, legacy = false) {
  const name = `${legacy ? 'rlegacy' : 'rsent'}${randomBytes(2).toString('hex')}`;
  const stripe = stripeStandin(async () => undefined);
  const stripeUrl = await stripe.start();
  const env = {
    STRIPE_API_BASE_URL: stripeUrl,
    SWEEP_EVERY_SECONDS: '3',
    TRANSFER_LEASE_SECONDS: '15',
    INBOX_REDRIVE_AFTER_SECONDS: '10',
    TRANSFER_POLL_SECONDS: '5',
  };
  try {
    let api = await stack.api(name, { ...env, FAULT_CRASH_POINT: CRASH_POINT });
    const { base, port } = api;
    const { s, conn, sid, batchId } = await stripeShopWithBatch(stack, name, base);
    const child = api.child;
    await until(
      `the API killed itself at ${CRASH_POINT}`,
      () => child.exitCode !== null || child.signalCode !== null,
      60_000,
      50,
    );
    const killedAt = Date.now();
    const transfersCol = conn.db.collection('transfers');
    const atKill = await transfersCol.findOne({ shopId: sid });
    log(`kill -9 at ${CRASH_POINT} (${child.signalCode}): transfer ${atKill?._id} is ${atKill?.state}`);
    let rewritten = false;
    if (legacy && atKill?.state !== 'sent') {
      const sentMove = { ...atKill.history[1], to: 'sent', note: null };
      const res = await transfersCol.updateOne(
        { _id: atKill._id, shopId: sid, state: 'paid' },
        {
          $set: { state: 'sent', settledAt: null, reference: null, history: [atKill.history[0], sentMove] },
          $unset: { eventPendingAt: '' },
        },
      );
      rewritten = res.modifiedCount === 1;
      log(`the record made the two-write version's: sent (rewritten: ${rewritten})`);
    }
    api = await stack.api(name, { ...env, PORT: port });
    let transfer;
    const paidMs = await until(
      'the transfer is paid after the restart',
      async () => {
        transfer = await transfersCol.findOne({ shopId: sid });
        return transfer?.state === 'paid';
      },
      SETTLE_MS,
      500,
    ).catch(() => null);
    transfer = await transfersCol.findOne({ shopId: sid });
    const sinceKill = Date.now() - killedAt;
    const batch = await conn.db
      .collection('payout_batches')
      .findOne({ _id: new mongoose.Types.ObjectId(batchId) });
    const transfersOfBatch = await transfersCol.countDocuments({ shopId: sid });
    const credits = await conn.db
      .collection('payout_adjustments')
      .countDocuments({ shopId: sid, _id: transfer?._id });
    await conn.close();
    const key = String(transfer?._id ?? atKill?._id);
    const perKey = stripe.createdPerKey();
    const providerTransfers = perKey.get(key) ?? 0;
    const totalProviderTransfers = [...perKey.values()].reduce((a, b) => a + b, 0);
    const made = [...stripe.transfers.values()][0];
    const paidMoves = (transfer?.history ?? []).filter((c) => c.to === 'paid').length;
    let reconciled;
    try {
      reconciled = stack.cli(name, 'payouts:reconcile', '--domain', s.shopDomain).ok === true;
    } catch (err) {
      log(String(err));
      reconciled = false;
    }
    report(
      legacy
        ? '(g) a Stripe transfer an earlier version stranded in sent, after the upgrade'
        : '(f) API kill -9 between the writes of a Stripe answer (the sent-state crash)',
      {
        paid_twice: Math.max(0, totalProviderTransfers - 1),
        providerTransfers,
        stateAtKill: atKill?.state,
        ...(legacy ? { rewrittenToSent: rewritten } : {}),
        state: transfer?.state,
        paidMoves,
        creditedBack: credits,
        history: (transfer?.history ?? []).map((c) => `${c.from ?? '∅'}→${c.to}:${c.by}`).join(','),
        attempts: transfer?.attempts,
        lookups: stripe.lookups.length,
        providerIdMatches: transfer?.providerId === made?.id,
        amountCents: `${made?.amount}/${Math.round((batch?.total ?? 0) * 100)}`,
        transfersOfBatch,
        paidAfterKillS: paidMs === null ? `timeout (${SETTLE_MS / 1000} s)` : (sinceKill / 1000).toFixed(1),
        reconciled,
      },
      paidMs !== null &&
        transfer?.state === 'paid' &&
        paidMoves === 1 &&
        credits === 0 &&
        // the legacy record is settled by asking Stripe (its id), never by creating again
        (!legacy || stripe.lookups.length >= 1) &&
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

module.exports = { railsSentScenario, CRASH_POINT };
