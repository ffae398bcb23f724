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
import type { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { RailsConfig } from '../config/configuration';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { PayoutMethodsService } from './payout-methods.service';
import type { PayoutProvidersService } from './payout-providers.service';
import { ManualRail } from './rails/manual.rail';
import { PayoutRails } from './rails/payout-rails';
import type { PaypalRail } from './rails/paypal.rail';
import { ProviderCalls } from './rails/provider-calls';
import { StripeConnectRail } from './rails/stripe-connect.rail';
import type { TransferQueue } from './transfer-queue';
import { TransferRunner } from './transfer-runner.service';
import type { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';

/**
 * The Stripe side of the runner (issue 28) through the real SDK against the stateful stand-in:
 * an idempotency conflict is never a refusal, a transfer Stripe accepted is paid in one write, and
 * a transfer an earlier version left `sent` is settled by asking Stripe.
 */
describe('TransferRunner with Stripe', () => {
  const stripe = new StripeStandin();
  let url: string;
  let clock: FixedClock;
  let repo: FakeTransfersRepository;
  let credits: FakeCredits;
  let queue: FakeTransferQueue;
  let service: TransfersService;
  let runner: TransferRunner;
  let vendorId: Types.ObjectId;

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
    clock = new FixedClock();
    repo = new FakeTransfersRepository();
    credits = new FakeCredits();
    queue = new FakeTransferQueue();
    const methods = new FakeMethods();
    methods.target = { type: 'stripe_connect', destination: 'acct_runner', recipientType: null };
    const vendors = new FakeVendorsRepository();
    vendorId = vendors.add(vendor('runner vendor'))[0]._id;
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
      asReal<PayoutProvidersService>(new FakeProviders()),
      asReal<PayoutAdjustmentsService>(credits),
      asReal<VendorsRepository>(vendors),
      asReal<TransferQueue>(queue),
      fakeAuditTrail(clock),
      clock,
    );
    runner = new TransferRunner(
      asReal<TransfersRepository>(repo),
      service,
      asReal<PayoutProvidersService>(new FakeProviders()),
      rails,
      asReal<TransferQueue>(queue),
      clock,
      cfg,
    );
  });

  const newTransfer = (amount: number) =>
    service.createForPaidBatch(SHOP, { batchId: new Types.ObjectId(), vendorId, amount });
  const later = () => clock.set(new Date(clock.now().getTime() + 60_000));

  it('a 409 idempotency conflict (the same key in flight) is retried, never counted: no failure, no credit-back', async () => {
    const t = await newTransfer(61.2);
    stripe.inFlight = true;
    for (let i = 0; i < 4; i++) {
      await expect(runner.send(SHOP, t._id)).rejects.toThrow(/Stripe/);
      later();
    }
    const held = (await repo.findById(SHOP, t._id))!;
    expect(held).toMatchObject({ state: 'pending', refusals: 0 });
    expect(credits.credits.size).toBe(0);
    stripe.inFlight = false;
    expect(await runner.send(SHOP, t._id)).toBe('paid');
    expect([...stripe.createdPerKey().values()]).toEqual([1]);
    expect(credits.credits.size).toBe(0);
  });

  it("Stripe's answer is recorded in one write: pending → paid, never an intermediate sent", async () => {
    const t = await newTransfer(461.1);
    expect(await runner.send(SHOP, t._id)).toBe('paid');
    const paid = (await repo.findById(SHOP, t._id))!;
    const made = [...stripe.transfers.values()][0];
    expect(paid).toMatchObject({ state: 'paid', providerId: made.id, reference: made.id });
    expect(paid.history.map((h) => `${h.from}→${h.to}`)).toEqual(['null→pending', 'pending→paid']);
    expect(made.amount).toBe(46110);
  });

  it('a repeated send after Stripe forgot the key (24 h) asks Stripe first: the transfer it made, never a second', async () => {
    const t = await newTransfer(61.2);
    // The first attempt reached Stripe, and the process died before recording the answer.
    repo.crashNextMove = true;
    await expect(runner.send(SHOP, t._id)).rejects.toThrow(/killed/);
    const made = [...stripe.transfers.values()][0];
    stripe.forgetKey(String(t._id));
    clock.set(new Date(clock.now().getTime() + 25 * 3600 * 1000));
    expect(await runner.send(SHOP, t._id)).toBe('paid');
    expect((await repo.findById(SHOP, t._id))!).toMatchObject({ state: 'paid', providerId: made.id });
    expect([...stripe.createdPerKey().values()]).toEqual([1]);
    expect(stripe.lookups).toEqual([`/v1/transfers?transfer_group=${t.batchId}&limit=100`]);
  });

  it('a transfer an earlier version left sent is settled by asking Stripe (no second transfer)', async () => {
    const t = await newTransfer(61.2);
    // What the two-write version left when killed between its writes: Stripe made the transfer,
    // our record says sent with its id.
    await runner.send(SHOP, t._id);
    const made = [...stripe.transfers.values()][0];
    const doc = repo.docs.find((d) => String(d._id) === String(t._id))!;
    Object.assign(doc, { state: 'sent', settledAt: null, reference: null });
    doc.history = doc.history.slice(0, 1);
    doc.history.push({ from: 'pending', to: 'sent', at: clock.now(), by: 'rail', note: null });
    later();
    expect(await runner.follow(SHOP, t._id)).toBe('paid');
    const paid = (await repo.findById(SHOP, t._id))!;
    expect(paid).toMatchObject({ state: 'paid', providerId: made.id, reference: made.id });
    expect(stripe.lookups).toEqual([`/v1/transfers/${made.id}`]);
    expect([...stripe.createdPerKey().values()]).toEqual([1]);
    expect(credits.credits.size).toBe(0);
  });

  it('a sent transfer Stripe has since reversed in part: paid, then reversed by that much (credited back to the cent)', async () => {
    const t = await newTransfer(100);
    await runner.send(SHOP, t._id);
    const made = [...stripe.transfers.values()][0];
    const doc = repo.docs.find((d) => String(d._id) === String(t._id))!;
    Object.assign(doc, { state: 'sent', settledAt: null });
    stripe.reverse(made.id, 2575);
    later();
    expect(await runner.follow(SHOP, t._id)).toBe('reversed');
    const after = (await repo.findById(SHOP, t._id))!;
    expect(after).toMatchObject({ state: 'reversed', reversedAmount: 25.75 });
    expect(BigInt(Math.round(credits.credits.get(String(t._id))!.amount * 100))).toBe(2575n);
  });
});
