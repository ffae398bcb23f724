import { Logger } from '@nestjs/common';
import fc from 'fast-check';
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

/** Integer cents: the oracle's own arithmetic (never the code's money helpers). */
const toCents = (amount: number) => BigInt(Math.round(amount * 100));

type Op =
  | { kind: 'pay'; cents: number; mode: 'ok' | 'refuse' | 'outage' | 'crash' }
  | { kind: 'reverse'; pick: number; partial: boolean }
  | { kind: 'retry'; pick: number }
  | { kind: 'repeat'; pick: number }
  | { kind: 'payCredits' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      cents: fc.integer({ min: 1, max: 500_000 }),
      mode: fc.constantFrom('ok' as const, 'refuse' as const, 'outage' as const, 'crash' as const),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(), partial: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'payCredits' as const }) },
);

/**
 * Random batch / failure / reversal / retry sequences through the real TransfersService,
 * TransferRunner and Stripe rail (the official SDK over the guarded helper) against the stateful
 * Stripe stand-in; repositories are typed fakes. After every sequence, with the provider back:
 *   Σ money that reached the vendor − Σ reversals = Σ batch totals − Σ credited back,
 * no provider call is ever made for a transfer that is not stored, and no key pays twice.
 */
describe('Transfers: money out equals batches minus credit-backs (property)', () => {
  const stripe = new StripeStandin();
  let url: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    url = await stripe.start();
  });
  afterAll(() => stripe.stop());

  it('holds over random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        stripe.transfers.clear();
        stripe.calls.length = 0;
        stripe.refused.clear();
        stripe.outage = false;
        const clock = new FixedClock();
        const repo = new FakeTransfersRepository();
        const credits = new FakeCredits();
        const methods = new FakeMethods();
        const vendors = new FakeVendorsRepository();
        const v = vendors.add(vendor('prop vendor'))[0];
        const cfg = {
          stripeApiBaseUrl: url,
          allowLocalTargets: true,
          maxAttempts: 2,
          pollMs: 1000,
          leaseMs: 90_000,
        } as RailsConfig;
        const rails = new PayoutRails(
          new ManualRail(),
          new StripeConnectRail(cfg, new ProviderCalls()),
          asReal<PaypalRail>({}),
        );
        const queue = new FakeTransferQueue();
        const service = new TransfersService(
          asReal<TransfersRepository>(repo),
          asReal<PayoutMethodsService>(methods),
          asReal<PayoutProvidersService>(new FakeProviders()),
          asReal<PayoutAdjustmentsService>(credits),
          asReal<VendorsRepository>(vendors),
          asReal<TransferQueue>(queue),
          fakeAuditTrail(clock),
          clock,
        );
        const runner = new TransferRunner(
          asReal<TransfersRepository>(repo),
          service,
          asReal<PayoutProvidersService>(new FakeProviders()),
          rails,
          asReal<TransferQueue>(queue),
          clock,
          cfg,
        );
        const unstored: string[] = [];
        stripe.beforeAnswer = async (key) => {
          if (!(await repo.findById(SHOP, key))) unstored.push(key);
        };
        let batchTotal = 0n;
        const drive = async (id: string) => {
          for (let i = 0; i < 4; i++) {
            await runner.send(SHOP, id).catch(() => undefined);
            clock.set(new Date(clock.now().getTime() + 120_000)); // past any lease
          }
        };
        const pick = (n: number) => (repo.docs.length ? repo.docs[n % repo.docs.length] : null);

        for (const o of ops) {
          if (o.kind === 'pay') {
            const dest = `acct_${o.mode}${repo.docs.length}`;
            methods.target = { type: 'stripe_connect', destination: dest, recipientType: null };
            if (o.mode === 'refuse') stripe.refused.add(dest);
            stripe.outage = o.mode === 'outage';
            if (o.mode === 'crash') repo.crashNextMove = true;
            const amount = o.cents / 100;
            const t = await service.createForPaidBatch(SHOP, {
              batchId: new Types.ObjectId(),
              vendorId: v._id,
              amount,
            });
            batchTotal += BigInt(o.cents);
            if (o.mode === 'outage') {
              await expect(runner.send(SHOP, t._id)).rejects.toThrow(/unavailable/);
              expect((await repo.findById(SHOP, t._id))!.state).toBe('pending');
              stripe.outage = false;
            }
            await drive(t._id);
          } else if (o.kind === 'reverse') {
            const t = pick(o.pick);
            // paid, or reversed already (a further partial reversal): Stripe reports the running total
            if ((t?.state === 'paid' || t?.state === 'reversed') && t.providerId) {
              const st = stripe.transfers.get(t.providerId)!;
              const more = o.partial ? Math.max(1, Math.floor(st.amount / 3)) : st.amount;
              const total = Math.min(st.amount, st.amount_reversed + more);
              stripe.reverse(t.providerId, total);
              await service.reverse(
                SHOP,
                await service.load(SHOP, t._id),
                total / 100,
                'webhook:stripe',
                'test',
              );
            }
          } else if (o.kind === 'retry') {
            const t = pick(o.pick);
            if (t?.state === 'failed') {
              stripe.refused.delete(t.destination!);
              stripe.forgetKey(String(t._id));
              await service.retry(SHOP, String(t._id)).catch(() => undefined);
              await drive(String(t._id));
            }
          } else if (o.kind === 'repeat') {
            const t = pick(o.pick);
            if (t) await drive(String(t._id)); // a repeated job or sweeper pass
          } else {
            // The next batch pays the outstanding credits (as the engine will); they count as batch totals.
            for (const c of credits.credits.values()) {
              if (c.status === 'UNPAID') {
                c.status = 'PAID';
              }
            }
          }
        }
        // The provider is back: every open transfer is driven to its end.
        for (const t of repo.docs) if (t.state === 'pending') await drive(String(t._id));

        const out = [...stripe.transfers.values()].reduce((s, x) => s + BigInt(x.amount), 0n);
        const reversed = [...stripe.transfers.values()].reduce((s, x) => s + BigInt(x.amount_reversed), 0n);
        const credited = [...credits.credits.values()].reduce((s, c) => s + toCents(c.amount), 0n);
        expect(repo.docs.filter((t) => t.state === 'pending')).toEqual([]);
        expect(out - reversed).toBe(batchTotal - credited);
        expect(unstored).toEqual([]);
        expect([...stripe.createdPerKey().values()].every((n) => n === 1)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
