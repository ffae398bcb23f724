import { shopScope } from '../common/tenancy';
import { PayoutReconcileService } from '../payouts/payout-reconcile.service';
import { SellerTaxReconcile } from '../reports/seller-tax-reconcile.service';
import { SellerTaxSummaries } from '../reports/seller-tax-summaries.service';
import { ShopsService } from '../shops/shops.service';
import { CliCommand, requireString } from './cli-command';

export const reconcileCommands: CliCommand[] = [
  {
    name: 'payouts:reconcile',
    description:
      'Prove every vendor balance and settled batch against the rows: prints {shopDomain, ok, vendors: ' +
      '[{saleRows, refundRows, adjustments, paidByBatches, paidOnRows, balance, due, pending, ok, differences}], ' +
      "sellerTax: {ok, years, compared, differences}} (the seller tax report's stored quarters against the rows); " +
      'exits 1 on any difference.',
    options: [{ flags: '--domain <domain>', description: "the shop's domain", required: true }],
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const scope = shopScope(String(shop._id));
      const report = await app.get(PayoutReconcileService).reconcile(scope);
      // after the balances (which let the tally count every change): the seller tax report's quarters
      const sellerTax = await app.get(SellerTaxReconcile).reconcile(scope);
      return { shopDomain: shop.domain, ...report, ok: report.ok && sellerTax.ok, sellerTax };
    },
  },
  {
    name: 'reports:seller-tax-rebuild',
    description:
      "Recompute every stored quarter of the shop's seller tax report from the rows (after an upgrade: rows " +
      'counted before the tally marked quarters have none yet; payouts:reconcile names them): prints ' +
      '{shopDomain, years, refreshed}. Safe beside live traffic and when run twice.',
    options: [{ flags: '--domain <domain>', description: "the shop's domain", required: true }],
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const out = await app.get(SellerTaxSummaries).rebuild(shopScope(String(shop._id)));
      return { shopDomain: shop.domain, ...out };
    },
  },
];
