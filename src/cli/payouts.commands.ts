import { shopScope } from '../common/tenancy';
import { toPayoutBatchResponse } from '../payouts/payout.mapper';
import { PayoutScheduler } from '../payout-schedule/payout-scheduler.service';
import { PayoutEngine } from '../payouts/payout-engine.service';
import { ShopSettingsService } from '../shops/shop-settings.service';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, optionalString, requireString } from './cli-command';
import { NO_PROGRESS } from './progress';

export const payoutsCommands: CliCommand[] = [
  {
    name: 'payouts:run',
    description:
      'Run the payout batches up to a day in this process (same engine as POST /v1/payouts/batches); ' +
      'prints {shopDomain, until, batchIds, batches}. Progress on stderr.',
    options: [
      { flags: '--domain <domain>', description: "the shop's domain", required: true },
      {
        flags: '--until <date>',
        description: 'last day paid, YYYY-MM-DD (UTC, not in the future)',
        required: true,
      },
      {
        flags: '--vendor <vendorId>',
        description: 'only this vendor (default: every vendor with something to pay)',
      },
    ],
    /** Runs the batches in this process (same engine as the queue) and prints them once finished. */
    run: async (app, args, progress = NO_PROGRESS) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const until = requireString(args, 'until');
      const vendorId = optionalString(args, 'vendor');
      const bar = progress('batches');
      try {
        const batches = await app
          .get(PayoutEngine)
          .runNow(shopScope(String(shop._id)), { until, ...(vendorId ? { vendorId } : {}) }, (p) =>
            bar.update(
              p.batchesDone,
              p.batches,
              p.current &&
                `${p.current.vendorName}: ${p.current.lineItemsDone}/${p.current.lineItems} line items`,
            ),
          );
        return {
          shopDomain: shop.domain,
          until,
          batchIds: batches.map((b) => String(b._id)),
          batches: batches.map(toPayoutBatchResponse),
        };
      } finally {
        bar.stop();
      }
    },
  },
  {
    name: 'payouts:schedule',
    description:
      "The shop's payout schedule and its next due dates (DESIGN §15); prints {shopDomain, payoutSchedule, " +
      'nextDueDates} (the next 5, UTC days; empty for manual).',
    options: [{ flags: '--domain <domain>', description: "the shop's domain", required: true }],
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const scope = shopScope(String(shop._id));
      const settings = await app.get(ShopSettingsService).get(scope);
      return {
        shopDomain: shop.domain,
        payoutSchedule: settings.payoutSchedule,
        nextDueDates: await app.get(PayoutScheduler).nextDueDates(String(shop._id), 5),
      };
    },
  },
];
