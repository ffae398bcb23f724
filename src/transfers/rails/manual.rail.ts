import { Injectable } from '@nestjs/common';
import { PayoutRail, SendOutcome } from './payout-rail';

/**
 * The default rail: nothing is called. The transfer waits in `awaiting_reference` until an operator
 * pays it (the batch's bank file) and records the bank reference (POST …/transfers/{id}/confirm).
 */
@Injectable()
export class ManualRail extends PayoutRail {
  readonly method = 'manual' as const;

  send(): Promise<SendOutcome> {
    return Promise.resolve({ kind: 'awaiting_reference' });
  }
}
