import type { Clock } from '../common/clock/clock';
import type { ShopScope } from '../common/tenancy';
import type { Transfer } from './transfer.schema';
import type { TransferState } from './transfer-states';
import type { TransfersRepository } from './transfers.repository';

/** Another call holds the transfer: the job tries again later. */
export class TransferBusyError extends Error {}

/**
 * Takes the transfer for one rail call (TransferRunner): a lease of `leaseMs`, and the attempt
 * counted, so two workers never call a provider for the same transfer at once. Null when it is not
 * in one of `states`; TransferBusyError when it is, but another call holds it.
 */
export async function claimTransfer(
  transfers: TransfersRepository,
  clock: Clock,
  leaseMs: number,
  scope: ShopScope,
  transferId: string,
  states: readonly TransferState[],
): Promise<Transfer | null> {
  const t = await transfers.findById(scope, transferId);
  if (!t || !states.includes(t.state)) return null;
  const now = clock.now();
  const claimed = await transfers.claim(
    scope,
    t._id,
    [t.state],
    now,
    // how long one rail call holds it (TRANSFER_LEASE_SECONDS; each provider try's timeout is
    // derived from it, so the call ends first: providerTimeoutFor)
    new Date(now.getTime() + leaseMs),
  );
  if (!claimed) {
    const again = await transfers.findById(scope, transferId);
    if (again && states.includes(again.state))
      throw new TransferBusyError('Another attempt holds this transfer');
  }
  return claimed;
}
