import { Injectable } from '@nestjs/common';
import type { PayoutMethodType } from '../transfer-states';
import { ManualRail } from './manual.rail';
import { PayoutRail } from './payout-rail';
import { PaypalRail } from './paypal.rail';
import { StripeConnectRail } from './stripe-connect.rail';

/** The rail of each payout method. */
@Injectable()
export class PayoutRails {
  private readonly byMethod: Record<PayoutMethodType, PayoutRail>;

  constructor(manual: ManualRail, stripe: StripeConnectRail, paypal: PaypalRail) {
    this.byMethod = { manual, stripe_connect: stripe, paypal };
  }

  of(method: PayoutMethodType): PayoutRail {
    return this.byMethod[method];
  }
}
