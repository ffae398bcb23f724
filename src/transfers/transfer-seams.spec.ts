import { Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { StripeStandin } from '../../test/standins/stripe-standin';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import {
  FakeCredits,
  FakeMethods,
  FakeProviders,
  FakeTransferQueue,
  FakeTransfersRepository,
} from '../../test/fakes/transfers.fake';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import { fakeAuditTrail } from '../../test/fakes/audit.fake';
import { FakeEventRecorder, sinkInto } from '../../test/fakes/events.fake';
import type { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { RailsConfig } from '../config/configuration';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { PayoutMethodsService } from './payout-methods.service';
import type { PayoutProvidersService } from './payout-providers.service';
import { ProviderWebhooksService } from './provider-webhooks.service';
import { ManualRail } from './rails/manual.rail';
import { PayoutRails } from './rails/payout-rails';
import type { PaypalRail } from './rails/paypal.rail';
import { ProviderCalls } from './rails/provider-calls';
import { StripeConnectRail } from './rails/stripe-connect.rail';
import { RailOutage } from './rails/payout-rail';
import type { TransferQueue } from './transfer-queue';
import { TransferRunner } from './transfer-runner.service';
import type { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

const cents = (amount: number) => BigInt(Math.round(amount * 100));

describe('transfer seams: credits, Stripe follow-up, retries (review R1-R3)', () => {
  const stripe = new StripeStandin();
  let url: string;
  let clock: FixedClock;
  let repo: FakeTransfersRepository;
  let credits: FakeCredits;
  let providers: FakeProviders;
  let service: TransfersService;
  let runner: TransferRunner;
  let hooks: ProviderWebhooksService;
  let vendorId: Types.ObjectId;
  let recorder: FakeEventRecorder;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    url = await stripe.start();
  });
  afterAll(() => stripe.stop());

  beforeEach(() => {
    stripe.transfers.clear();
    stripe.calls.length = 0;
    stripe.lookups.length = 0;
    stripe.inFlight = false;
    stripe.refused.clear();
    clock = new FixedClock();
    repo = new FakeTransfersRepository();
    credits = new FakeCredits();
    providers = new FakeProviders();
    const methods = new FakeMethods();
    methods.target = { type: 'stripe_connect', destination: 'acct_review', recipientType: null };
    const vendors = new FakeVendorsRepository();
    vendorId = vendors.add(vendor('review vendor'))[0]._id;
    const cfg = {
      stripeApiBaseUrl: url,
      allowLocalTargets: true,
      maxAttempts: 2,
      pollMs: 1000,
      leaseMs: 15_000,
    } as RailsConfig;
    const rails = new PayoutRails(
      new ManualRail(),
      new StripeConnectRail(cfg, new ProviderCalls()),
      asReal<PaypalRail>({}),
    );
    service = new TransfersService(
      asReal<TransfersRepository>(repo),
      asReal<PayoutMethodsService>(methods),
      asReal<PayoutProvidersService>(providers),
      asReal<PayoutAdjustmentsService>(credits),
      asReal<VendorsRepository>(vendors),
      asReal<TransferQueue>(new FakeTransferQueue()),
      fakeAuditTrail(clock),
      clock,
      sinkInto((recorder = new FakeEventRecorder())),
    );
    runner = new TransferRunner(
      asReal<TransfersRepository>(repo),
      service,
      asReal<PayoutProvidersService>(providers),
      rails,
      asReal<TransferQueue>(new FakeTransferQueue()),
      clock,
      cfg,
    );
    const none = {} as never;
    hooks = new ProviderWebhooksService(
      none,
      none,
      none,
      none,
      asReal<TransfersRepository>(repo),
      service,
      runner,
      none,
      none,
      clock,
      none,
    );
  });

  const newTransfer = (amount: number) =>
    service.createForPaidBatch(SHOP, { batchId: new Types.ObjectId(), vendorId, amount });
  const later = (ms = 60_000) => clock.set(new Date(clock.now().getTime() + ms));
  const credited = () => [...credits.credits.values()].reduce((s, c) => s + cents(c.amount), 0n);

  it('R1: a reversal found by the follow-up is lost if the process dies between pending→paid and reverse()', async () => {
    const t = await newTransfer(100);
    // attempt 1: Stripe made tr_…, the process died before recording it (transfer stays pending, no providerId)
    repo.crashNextMove = true;
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/killed/);
    const made = [...stripe.transfers.values()][0];
    // the platform reverses 40.00 at Stripe; its webhook finds no transfer with that Stripe id
    stripe.reverse(made.id, 4000);
    const hook = await hooks.applyStripe(SHOP, 'stripe/transfer.reversed', {
      data: { object: { id: made.id, amount: 10000, amount_reversed: 4000, reversed: false } },
    });
    expect(hook).toBe('ignored: no transfer with this Stripe id');
    // attempt 2 (redrive / follow-up): asks Stripe, writes pending→paid, and dies before reverse()
    // (the crash point after a transfer's write: crashPoint('after-change:transfer') in moved())
    const original = service.moved.bind(service);
    service.moved = async () => {
      service.moved = original;
      throw new Error('killed after the paid write, before the reversal credit');
    };
    later();
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/killed after/);
    // every way out a restarted process or an operator has:
    later();
    expect(await runner.followUp(SHOP, t._id, 'shop:op')).toMatch(/skipped/); // paid: refused
    expect(await runner.send(SHOP, t._id)).toMatch(/skipped/);
    expect(await runner.follow(SHOP, t._id)).toMatch(/skipped/);
    // the sweeper reads only pending/sent and failed/reversed with no marker: a paid one is never read
    const now = (await repo.findById(SHOP, t._id))!;
    expect([now.state, credited()]).toEqual(['reversed', 4000n]);
  });

  it('R2: after an attempt whose outcome is unknown, a refused LOOKUP (key rotated/restricted) counts as a refusal and credits back a transfer Stripe made', async () => {
    const t = await newTransfer(55.5);
    repo.crashNextMove = true; // attempt 1 reached Stripe and paid; our write died
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/killed/);
    expect(stripe.transfers.size).toBe(1);
    // the shop replaces its key by a restricted one (or revokes it) before the redrive
    providers.creds.stripeSecretKey = 'rk_test_restrictedKey0001';
    for (let i = 0; i < 2; i++) {
      later();
      await runner.send(SHOP, t._id).catch(() => undefined);
    }
    const now = (await repo.findById(SHOP, t._id))!;
    // Stripe holds a transfer of 55.50 to the vendor; we must never credit it back
    expect({ state: now.state, credited: credited(), atStripe: stripe.transfers.size }).toEqual({
      state: 'pending',
      credited: 0n,
      atStripe: 1,
    });
  });

  it('R3: a retry whose hold lapses mid-way moves the transfer anyway, after the sweeper re-made and released the credit: paid twice', async () => {
    const t = await newTransfer(70);
    await service.fail(SHOP, (await repo.findById(SHOP, t._id))!, 'refused', 'rail');
    expect(credited()).toBe(7000n);
    // retry: holds, withdraws the credit, then stalls (a slow audit write / DB failover) past its 60 s hold
    const withdraw = credits.withdrawSystemAddition.bind(credits);
    let resume!: () => void;
    const gate = new Promise<void>((r) => (resume = r));
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    credits.withdrawSystemAddition = async (...args) => {
      const out = await withdraw(...args);
      reached();
      await gate;
      return out;
    };
    const retried = service.retry(SHOP, t._id).catch((e: Error) => e.message);
    await atGate;
    credits.withdrawSystemAddition = withdraw;
    later(121_000); // past the hold (60 s) and the sweeper's quiet period (120 s)
    // the transfer sweeper: failed, creditAdjustmentId null (the hold nulled it), quiet → creditBack
    await service.creditBack(SHOP, (await repo.findById(SHOP, t._id))!);
    resume();
    const answer = await retried;
    const now = (await repo.findById(SHOP, t._id))!;
    // either the retry is refused (transfer stays failed, credit stays) or it goes on with no credit
    expect({
      answer: typeof answer === 'string' ? 'refused' : 'ok',
      state: now.state,
      credited: credited(),
    }).toEqual(
      now.state === 'failed'
        ? { answer: 'refused', state: 'failed', credited: 7000n }
        : { answer: 'ok', state: 'pending', credited: 0n },
    );
  });

  it('R1b: a Stripe reversal webhook for a transfer not recorded paid yet (found by metadata.transferId) is retried, then applied once', async () => {
    const t = await newTransfer(100);
    repo.crashNextMove = true; // Stripe made tr_…, our write died: pending, no Stripe id
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/killed/);
    const made = [...stripe.transfers.values()][0];
    stripe.reverse(made.id, 2500);
    const event = (reversed: number) => ({
      data: {
        object: {
          id: made.id,
          amount: 10000,
          amount_reversed: reversed,
          reversed: false,
          metadata: { transferId: String(t._id) },
        },
      },
    });
    // thrown, so the inbox keeps the delivery and applies it again later (not acknowledged as lost)
    await expect(hooks.applyStripe(SHOP, 'stripe/transfer.reversed', event(2500))).rejects.toThrow(
      /not recorded paid yet/,
    );
    later();
    expect(await runner.send(SHOP, t._id)).toBe('reversed'); // the redrive's lookup sees 25.00 back
    // both moves of that one write are told at once (transfer.paid, then transfer.failed), marker cleared
    expect(recorder.ofType('transfer.paid').length).toBe(1);
    expect(recorder.ofType('transfer.failed').map((e) => e.object.reversedAmount)).toEqual([25]);
    expect((await repo.findById(SHOP, t._id))!.eventPendingAt).toBeUndefined();
    expect(await hooks.applyStripe(SHOP, 'stripe/transfer.reversed', event(2500))).toBe(
      'ignored: already reversed that far',
    );
    stripe.reverse(made.id, 3500);
    expect(await hooks.applyStripe(SHOP, 'stripe/transfer.reversed', event(3500))).toBe('reversed');
    const now = (await repo.findById(SHOP, t._id))!;
    expect({
      state: now.state,
      reversedAmount: now.reversedAmount,
      credited: credited(),
      moves: now.history.slice(1).map((h) => `${h.from}→${h.to}`),
    }).toEqual({
      state: 'reversed',
      reversedAmount: 35,
      credited: 3500n,
      moves: ['pending→paid', 'paid→reversed', 'reversed→reversed'],
    });
  });

  it('R2 guard: with no earlier attempt of unknown outcome, a refused create after a lookup that found nothing still counts (fails and credits back)', async () => {
    const t = await newTransfer(12.34);
    stripe.inFlight = true; // attempt 1: 409 in flight → outcome unknown, nothing made
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/unknown/);
    stripe.inFlight = false;
    stripe.refused.clear();
    stripe.refused.add('acct_review');
    for (let i = 0; i < 2; i++) {
      later();
      await runner.send(SHOP, t._id).catch(() => undefined);
    }
    const now = (await repo.findById(SHOP, t._id))!;
    expect({ state: now.state, credited: credited(), atStripe: stripe.transfers.size }).toEqual({
      state: 'failed',
      credited: 1234n,
      atStripe: 0,
    });
  });

  it('R4: a provider failure whose fail() loses to a move to paid reverses the paid transfer (credits it back) instead of answering failed', async () => {
    const t = await newTransfer(80);
    const sent = (await repo.move(SHOP, t._id as never, 'sent', service.change('pending', 'sent', 'rail'), {
      providerId: 'PB-1',
    }))!;
    // a webhook records it paid between the lookup's read and its write
    await repo.move(SHOP, sent._id, 'paid', service.change('sent', 'paid', 'webhook:paypal'), {});
    const answer = await runner.applyOutcome(
      SHOP,
      sent,
      { kind: 'failed', providerStatus: 'RETURNED', reason: 'returned' },
      'rail',
    );
    const now = (await repo.findById(SHOP, t._id))!;
    expect({ answer, state: now.state, credited: credited() }).toEqual({
      answer: 'reversed',
      state: 'reversed',
      credited: 8000n,
    });
  });

  it('R5: a worker that lost its lease cannot clear the lease of the worker that took the transfer over', async () => {
    const t = await newTransfer(10);
    const real = providers.credentials.bind(providers);
    let resumeA!: () => void;
    const gateA = new Promise<void>((r) => (resumeA = r));
    let reachedA!: () => void;
    const atA = new Promise<void>((r) => (reachedA = r));
    providers.credentials = async () => {
      reachedA();
      await gateA;
      throw new RailOutage('Stripe unavailable: timed out', 'stripe');
    };
    const a = runner.send(SHOP, t._id).catch((e: Error) => e.message);
    await atA;
    later(); // A's lease (15 s) lapses; B takes the transfer
    let resumeB!: () => void;
    const gateB = new Promise<void>((r) => (resumeB = r));
    let reachedB!: () => void;
    const atB = new Promise<void>((r) => (reachedB = r));
    providers.credentials = async () => {
      reachedB();
      await gateB;
      return real();
    };
    const b = runner.send(SHOP, t._id);
    await atB;
    const leaseOfB = (await repo.findById(SHOP, t._id))!.leaseUntil;
    resumeA();
    expect(await a).toMatch(/unavailable/);
    expect((await repo.findById(SHOP, t._id))!.leaseUntil).toEqual(leaseOfB);
    resumeB();
    expect(await b).toBe('paid');
  });
});
