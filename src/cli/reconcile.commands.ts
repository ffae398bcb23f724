import { shopScope } from '../common/tenancy';
import { PayoutReconcileService } from '../payouts/payout-reconcile.service';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, requireString } from './cli-command';

export const reconcileCommands: CliCommand[] = [
  {
    name: 'payouts:reconcile',
    description:
      'Prove every vendor balance and settled batch against the rows: prints {shopDomain, ok, vendors: ' +
      '[{saleRows, refundRows, adjustments, paidByBatches, paidOnRows, balance, due, pending, ok, differences}]}; ' +
      'exits 1 on any difference.',
    options: [{ flags: '--domain <domain>', description: "the shop's domain", required: true }],
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const report = await app.get(PayoutReconcileService).reconcile(shopScope(String(shop._id)));
      return { shopDomain: shop.domain, ...report };
    },
  },
];
