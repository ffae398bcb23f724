import { shopScope } from '../common/tenancy';
import { toPayoutBatchResponse } from '../payouts/payout.mapper';
import { PayoutEngine } from '../payouts/payout-engine.service';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, CliUsageError, requireString } from './cli-command';

export const payoutsCommands: CliCommand[] = [
  {
    name: 'payouts:run',
    usage: 'payouts:run --domain D --until YYYY-MM-DD [--vendor VENDOR_ID]',
    /** Runs the batches in this process (same engine as the queue) and prints them once finished. */
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const until = requireString(args, 'until');
      const vendor = args.vendor;
      if (vendor === true) throw new CliUsageError('--vendor needs a vendor id');
      const batches = await app
        .get(PayoutEngine)
        .runNow(shopScope(String(shop._id)), { until, ...(vendor ? { vendorId: vendor } : {}) });
      return {
        shopDomain: shop.domain,
        until,
        batchIds: batches.map((b) => String(b._id)),
        batches: batches.map(toPayoutBatchResponse),
      };
    },
  },
];
