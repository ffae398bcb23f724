import { shopScope } from '../common/tenancy';
import { ShopsService } from '../shops/shops.service';
import { TRANSFER_STATES, TransferState } from '../transfers/transfer-states';
import { TransfersService } from '../transfers/transfers.service';
import { CliCommand, CliUsageError, optionalString, requireString } from './cli-command';

const PAGE = 250;

export const transfersCommands: CliCommand[] = [
  {
    name: 'payouts:transfers',
    description:
      'List a shop’s payout transfers, newest first (same data as GET /v1/payouts/transfers); prints ' +
      '{shopDomain, total, transfers}.',
    options: [
      { flags: '--domain <domain>', description: "the shop's domain", required: true },
      { flags: '--state <state>', description: `only this state: ${TRANSFER_STATES.join(', ')}` },
    ],
    run: async (app, args) => {
      const shop = await app.get(ShopsService).getByDomain(requireString(args, 'domain'));
      const state = optionalString(args, 'state');
      if (state !== undefined && !(TRANSFER_STATES as readonly string[]).includes(state)) {
        throw new CliUsageError(`--state must be one of ${TRANSFER_STATES.join(', ')}`);
      }
      const scope = shopScope(String(shop._id));
      const service = app.get(TransfersService);
      const transfers = [];
      let total = 0;
      for (let offset = 0; ; offset += PAGE) {
        const page = await service.list(scope, {
          offset,
          limit: PAGE,
          ...(state ? { state: state as TransferState } : {}),
        });
        total = page.total;
        transfers.push(...page.transfers);
        if (page.nextOffset === null) break;
      }
      return { shopDomain: shop.domain, total, transfers };
    },
  },
];
