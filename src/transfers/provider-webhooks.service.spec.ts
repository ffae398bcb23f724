import { Types } from 'mongoose';
import { asReal, FixedClock, SHOP } from '../../test/fakes/fake';
import { FakeTransfersRepository } from '../../test/fakes/transfers.fake';
import type { FollowOutcome } from './rails/payout-rail';
import { ProviderWebhooksService } from './provider-webhooks.service';
import type { Transfer } from './transfer.schema';
import type { TransferRunner } from './transfer-runner.service';

/** The runner's side of a webhook: records the outcomes it is handed (the rail rules are its own tests'). */
class RecordingRunner implements Pick<TransferRunner, 'applyOutcome'> {
  readonly applied: Array<{ transferId: string; outcome: FollowOutcome }> = [];
  async applyOutcome(_scope: unknown, t: Transfer, outcome: FollowOutcome): Promise<string> {
    this.applied.push({ transferId: String(t._id), outcome });
    return outcome.kind;
  }
}

/** applyPaypal over the transfers fake: which transfer a verified PayPal item event may move. */
describe('ProviderWebhooksService.applyPaypal', () => {
  let transfers: FakeTransfersRepository;
  let runner: RecordingRunner;
  let service: ProviderWebhooksService;

  beforeEach(() => {
    transfers = new FakeTransfersRepository();
    runner = new RecordingRunner();
    // Positional: only the transfers repository and the runner are used by applyPaypal.
    const deps: unknown[] = [];
    deps[4] = transfers;
    deps[6] = asReal<TransferRunner>(runner);
    deps[9] = new FixedClock();
    service = new ProviderWebhooksService(...(deps as ConstructorParameters<typeof ProviderWebhooksService>));
  });

  async function transfer(state: Transfer['state'], providerId: string | null): Promise<Transfer> {
    const at = new Date('2026-11-21T12:00:00Z');
    const { transfer: t } = await transfers.insertOnce(
      SHOP,
      {
        batchId: new Types.ObjectId(),
        vendorId: new Types.ObjectId(),
        amount: 12.34,
        currency: 'USD',
        method: 'paypal',
        destination: 'v@example.com',
        recipientType: 'EMAIL',
      } as Parameters<FakeTransfersRepository['insertOnce']>[1],
      { from: null, to: 'pending', at, by: 'test', note: null } as never,
    );
    const doc = transfers.docs.find((d) => d._id.equals(t._id))!;
    Object.assign(doc, { state, providerId });
    return { ...doc };
  }

  const itemEvent = (batch: string | undefined, senderItemId: string, status = 'FAILED') => ({
    id: 'WH-1',
    event_type: `PAYMENT.PAYOUTS-ITEM.${status}`,
    resource: {
      payout_batch_id: batch,
      transaction_status: status,
      payout_item: { sender_item_id: senderItemId },
    },
  });

  it('applies the event of the transfer’s current payout batch', async () => {
    const t = await transfer('sent', 'BATCH-NOW');
    const result = await service.applyPaypal(SHOP, 'paypal/x', itemEvent('BATCH-NOW', String(t._id)));
    expect(result).toBe('failed');
    expect(runner.applied).toEqual([
      { transferId: String(t._id), outcome: expect.objectContaining({ kind: 'failed' }) },
    ]);
  });

  it('ignores an event of an earlier payout batch that names the transfer by sender_item_id', async () => {
    const t = await transfer('sent', 'BATCH-NOW');
    const result = await service.applyPaypal(
      SHOP,
      'paypal/x',
      itemEvent('BATCH-EARLIER', String(t._id), 'SUCCESS'),
    );
    expect(runner.applied).toEqual([]);
    expect(result).toMatch(/^ignored: payout batch BATCH-EARLIER is not the current payout/);
  });

  it('ignores an event without a payout batch id, even when sender_item_id names a transfer', async () => {
    const t = await transfer('sent', 'BATCH-NOW');
    const result = await service.applyPaypal(SHOP, 'paypal/x', itemEvent(undefined, String(t._id)));
    expect(runner.applied).toEqual([]);
    expect(result).toMatch(/^ignored/);
  });

  it('ignores an event for a transfer that is pending again (an operator retry sends it anew)', async () => {
    // A retried transfer keeps its earlier providerId until the new send answers.
    const t = await transfer('pending', 'BATCH-EARLIER');
    const result = await service.applyPaypal(SHOP, 'paypal/x', itemEvent('BATCH-EARLIER', String(t._id)));
    expect(runner.applied).toEqual([]);
    expect(result).toMatch(/^ignored: transfer is pending/);
  });
});
