import { Injectable } from '@nestjs/common';
import { OperationContexts } from '../common/context/operation-context';
import { ConflictError, ServiceUnavailableError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { TransferDto } from './dto/transfer.dto';
import { RailOutage, RailRefusal } from './rails/payout-rail';
import { toTransferResponse } from './transfer.mapper';
import { TransferBusyError } from './transfer-claim';
import { TransferRunner } from './transfer-runner.service';
import { OPEN_STATES } from './transfer-states';
import { TransfersService } from './transfers.service';

/**
 * The operator's way out of a transfer that is not final (issue 28): `POST
 * /v1/payouts/transfers/{id}/follow-up` asks the provider now and applies what it says, in the
 * request, audited (`transfer.follow_up`) with the move in the transfer's own history. A provider
 * outage changes nothing (503: ask again); another call holding the transfer → 409.
 */
@Injectable()
export class TransferFollowUp {
  constructor(
    private readonly transfers: TransfersService,
    private readonly runner: TransferRunner,
  ) {}

  async followUp(scope: ShopScope, id: string): Promise<TransferDto> {
    const t = await this.transfers.load(scope, id);
    if (t.state === 'awaiting_reference') {
      throw new ConflictError(
        'A manual transfer has no provider to ask: record the bank reference (POST /v1/payouts/transfers/{id}/confirm)',
      );
    }
    if (!OPEN_STATES.includes(t.state)) {
      throw new ConflictError(`Only a pending or sent transfer can be followed up; this one is ${t.state}`);
    }
    try {
      await this.runner.followUp(scope, String(t._id), this.caller());
    } catch (err) {
      if (err instanceof TransferBusyError) {
        throw new ConflictError(
          'A provider call holds this transfer right now (TRANSFER_LEASE_SECONDS at most); follow it up again then',
        );
      }
      if (err instanceof RailOutage) {
        throw new ServiceUnavailableError(`${err.message}. Nothing was changed; follow it up again shortly`);
      }
      // A refused lookup or send: recorded on the transfer (lastError; a refused send counts), shown below.
      if (!(err instanceof RailRefusal)) throw err;
    }
    return toTransferResponse(await this.transfers.load(scope, t._id));
  }

  /** Who asked (`shop:<id>`), for the transfer's history. */
  private caller(): string {
    const actor = OperationContexts.current()?.actor;
    return actor ? `${actor.kind}:${actor.id}` : 'system';
  }
}
