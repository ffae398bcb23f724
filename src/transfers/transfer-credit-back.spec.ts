import { Types } from 'mongoose';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import { fakeAuditTrail } from '../../test/fakes/audit.fake';
import {
  FakeCredits,
  FakeMethods,
  FakeProviders,
  FakeTransferQueue,
  FakeTransfersRepository,
} from '../../test/fakes/transfers.fake';
import { FakeVendorsRepository, vendor } from '../../test/fakes/vendors.fake';
import type { PayoutAdjustmentsService } from '../adjustments/payout-adjustments.service';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { PayoutMethodsService } from './payout-methods.service';
import type { PayoutProvidersService } from './payout-providers.service';
import { ProviderWebhooksService } from './provider-webhooks.service';
import type { TransferQueue } from './transfer-queue';
import type { TransfersRepository } from './transfers.repository';
import { creditAdjustmentIdOf } from './transfer-credits';
import { TransfersService } from './transfers.service';

/** Integer cents: the oracle's own arithmetic (never the code's money helpers). */
const cents = (amount: number) => BigInt(Math.round(amount * 100));

/**
 * Credit-backs (issue 28): every partial Stripe reversal credits exactly the increase of the
 * reversed total, once, in any order; a retry racing the credit-back of a failure leaves the
 * vendor owed the amount exactly once. Real TransfersService and the Stripe webhook applier over
 * typed fakes of the transfers collection and the adjustments service.
 */
describe('Transfer credit-backs', () => {
  let clock: FixedClock;
  let repo: FakeTransfersRepository;
  let credits: FakeCredits;
  let service: TransfersService;
  let hooks: ProviderWebhooksService;
  let vendorId: Types.ObjectId;

  beforeEach(() => {
    clock = new FixedClock();
    repo = new FakeTransfersRepository();
    credits = new FakeCredits();
    const vendors = new FakeVendorsRepository();
    vendorId = vendors.add(vendor('credit vendor'))[0]._id;
    service = new TransfersService(
      asReal<TransfersRepository>(repo),
      asReal<PayoutMethodsService>(new FakeMethods()),
      asReal<PayoutProvidersService>(new FakeProviders()),
      asReal<PayoutAdjustmentsService>(credits),
      asReal<VendorsRepository>(vendors),
      asReal<TransferQueue>(new FakeTransferQueue()),
      fakeAuditTrail(clock),
      clock,
    );
    const none = {} as never;
    hooks = new ProviderWebhooksService(
      none,
      none,
      none,
      none,
      asReal<TransfersRepository>(repo),
      service,
      none,
      none,
      none,
      clock,
      none,
    );
  });

  /** A stored transfer of `amount`, paid through Stripe as `tr_…`. */
  async function paidTransfer(amount: number) {
    const t = await service.createForPaidBatch(SHOP, { batchId: new Types.ObjectId(), vendorId, amount });
    const doc = repo.docs.find((d) => String(d._id) === t._id)!;
    Object.assign(doc, { state: 'paid', providerId: `tr_${t._id}` });
    return doc;
  }

  /** A signed-and-stored `transfer.reversed` as the inbox hands it over (Stripe's Transfer object). */
  const reversed = (providerId: string, amountMinor: number, amountReversedMinor: number) =>
    hooks.applyStripe(SHOP, 'stripe/transfer.reversed', {
      id: `evt_${amountReversedMinor}`,
      type: 'transfer.reversed',
      data: {
        object: {
          id: providerId,
          object: 'transfer',
          amount: amountMinor,
          amount_reversed: amountReversedMinor,
          reversed: amountReversedMinor === amountMinor,
        },
      },
    });

  /** Σ of the vendor's credit-back ADDITIONs, in cents. */
  const credited = () => [...credits.credits.values()].reduce((s, c) => s + cents(c.amount), 0n);

  it('two partial reversals in order (10.00, then 40.00 in total) credit 40.00; a full one then credits the rest', async () => {
    const t = await paidTransfer(100);
    await reversed(t.providerId!, 10000, 1000);
    expect(credited()).toBe(1000n);
    await reversed(t.providerId!, 10000, 4000);
    expect(credited()).toBe(4000n);
    await reversed(t.providerId!, 10000, 4000); // redelivered
    expect(credited()).toBe(4000n);
    await reversed(t.providerId!, 10000, 10000);
    expect(credited()).toBe(10000n);
    const now = repo.docs.find((d) => d._id.equals(t._id))!;
    expect(now.state).toBe('reversed');
    expect(cents(now.reversedAmount!)).toBe(10000n);
    // the first credit keeps the transfer's own id (one credit per transfer, as before)
    expect(credits.credits.get(String(t._id))?.amount).toBe(10);
    expect(credits.credits.size).toBe(3);
  });

  it('out of order (40.00 in total, then the older 10.00) credits 40.00; a redelivery changes nothing', async () => {
    const t = await paidTransfer(100);
    await reversed(t.providerId!, 10000, 4000);
    await reversed(t.providerId!, 10000, 1000);
    expect(credited()).toBe(4000n);
    await reversed(t.providerId!, 10000, 4000);
    await reversed(t.providerId!, 10000, 1000);
    expect(credited()).toBe(4000n);
    await reversed(t.providerId!, 10000, 10000);
    expect(credited()).toBe(10000n);
  });

  it('never credits more than the transfer amount, whatever Stripe reports', async () => {
    const t = await paidTransfer(25.5);
    await reversed(t.providerId!, 2550, 2000);
    await reversed(t.providerId!, 2550, 999_999);
    expect(credited()).toBe(2550n);
  });

  it('a credit lost between the reversal write and the adjustment (a crash) is made by the sweeper pass, once', async () => {
    const t = await paidTransfer(100);
    await reversed(t.providerId!, 10000, 1000);
    credits.failNextCreate = true;
    await expect(reversed(t.providerId!, 10000, 4000)).rejects.toThrow(/killed/);
    expect(credited()).toBe(1000n);
    const stale = repo.docs.find((d) => d._id.equals(t._id))!;
    expect(stale.creditAdjustmentId).toBeNull(); // what the sweeper looks for
    await service.creditBack(SHOP, await service.load(SHOP, t._id));
    await service.creditBack(SHOP, await service.load(SHOP, t._id));
    expect(credited()).toBe(4000n);
    await reversed(t.providerId!, 10000, 4000);
    expect(credited()).toBe(4000n);
  });

  describe('a retry racing the credit-back of a failure', () => {
    /** The vendor is owed the amount exactly once: re-sent and no credit, or failed and one credit. */
    async function owedOnce(id: Types.ObjectId, amount: number) {
      const t = (await repo.findById(SHOP, id))!;
      const sum = credited();
      if (t.state === 'failed') expect([t.state, sum]).toEqual(['failed', cents(amount)]);
      else expect([t.state, sum]).toEqual(['pending', 0n]);
    }

    it('retry runs while fail() is between its move and the credit', async () => {
      const t = await service.createForPaidBatch(SHOP, {
        batchId: new Types.ObjectId(),
        vendorId,
        amount: 70,
      });
      const doc = (await repo.findById(SHOP, t._id))!;
      let retried: Promise<unknown> = Promise.resolve();
      credits.beforeCreate = async () => {
        credits.beforeCreate = null;
        retried = service.retry(SHOP, t._id).catch((err: Error) => err.message);
        await retried;
      };
      await service.fail(SHOP, doc, 'refused', 'rail');
      await retried;
      await owedOnce(doc._id, 70);
    });

    it('retry runs after the credit is written and before it is linked; a batch runs meanwhile', async () => {
      const t = await service.createForPaidBatch(SHOP, {
        batchId: new Types.ObjectId(),
        vendorId,
        amount: 70,
      });
      const doc = (await repo.findById(SHOP, t._id))!;
      let retried: Promise<unknown> = Promise.resolve();
      credits.afterCreate = async () => {
        credits.afterCreate = null;
        credits.payOutstanding(clock.now());
        retried = service.retry(SHOP, t._id).catch((err: Error) => err.message);
        await retried;
      };
      await service.fail(SHOP, doc, 'refused', 'rail');
      await retried;
      await owedOnce(doc._id, 70);
    });

    it('a retry and a sweeper pass both at the credit: the vendor is still owed once', async () => {
      const t = await service.createForPaidBatch(SHOP, {
        batchId: new Types.ObjectId(),
        vendorId,
        amount: 70,
      });
      const doc = (await repo.findById(SHOP, t._id))!;
      let sweep: Promise<unknown> = Promise.resolve();
      credits.beforeCreate = async () => {
        credits.beforeCreate = null;
        const seen = (await repo.findById(SHOP, t._id))!;
        await service.retry(SHOP, t._id).catch(() => undefined);
        sweep = service.creditBack(SHOP, seen);
        await sweep;
      };
      await service.fail(SHOP, doc, 'refused', 'rail');
      await sweep;
      await owedOnce(doc._id, 70);
    });

    it('a late credit-back of an earlier failure never touches the credit of a later one (ids are never reused)', async () => {
      const t = await service.createForPaidBatch(SHOP, {
        batchId: new Types.ObjectId(),
        vendorId,
        amount: 70,
      });
      await service.fail(SHOP, (await repo.findById(SHOP, t._id))!, 'refused', 'rail');
      const firstFailure = (await repo.findById(SHOP, t._id))!; // what a slow sweeper pass read
      await service.retry(SHOP, t._id);
      await service.fail(SHOP, (await repo.findById(SHOP, t._id))!, 'refused again', 'rail');
      const second = (await repo.findById(SHOP, t._id))!;
      expect(second.credits.map((c) => String(c.adjustmentId))).toEqual([
        String(creditAdjustmentIdOf(t._id, 2)),
      ]);
      await service.creditBack(SHOP, firstFailure); // its credit is not owed any more: withdrawn, not the new one
      await owedOnce(second._id, 70);
      expect([...credits.credits.keys()]).toEqual([String(creditAdjustmentIdOf(t._id, 2))]);
    });

    it('without a race: a failure credits once; the retry withdraws it and the transfer is pending', async () => {
      const t = await service.createForPaidBatch(SHOP, {
        batchId: new Types.ObjectId(),
        vendorId,
        amount: 70,
      });
      await service.fail(SHOP, (await repo.findById(SHOP, t._id))!, 'refused', 'rail');
      await owedOnce(new Types.ObjectId(t._id), 70);
      expect((await repo.findById(SHOP, t._id))!.creditAdjustmentId?.toHexString()).toBe(t._id);
      expect(credits.credits.get(t._id)).toMatchObject({ amount: 70, held: false }); // payable
      await service.retry(SHOP, t._id);
      await owedOnce(new Types.ObjectId(t._id), 70);
    });
  });
});
