import { EndpointSecretsRotation } from '../events/endpoint-secrets-rotation.service';
import { ShopSecretsService } from '../shops/shop-secrets.service';
import { PayoutProviderSecretsService } from '../transfers/payout-provider-secrets.service';
import { CliCommand } from './cli-command';

export const secretsCommands: CliCommand[] = [
  {
    name: 'secrets:rotate',
    description:
      "Re-encrypt every shop secret (webhook secrets, platform tokens) and every shop's payout provider " +
      'secrets (Stripe key and webhook secret, PayPal client id and secret) and every webhook ' +
      "endpoint's signing secrets under the current DATA_ENCRYPTION_KEY, reading old values with " +
      'DATA_ENCRYPTION_KEY_PREVIOUS; prints {keyId, shops, resealed, current, unreadable, skipped, ' +
      'payoutProviders: {documents, resealed, current, unreadable, skipped}, ' +
      'webhookEndpoints: {endpoints, resealed, current, unreadable, skipped}}.',
    options: [],
    run: async (app) => ({
      ...(await app.get(ShopSecretsService).rotate()),
      // After the shops (a key problem is reported there first); same key, same rules.
      payoutProviders: await app.get(PayoutProviderSecretsService).rotate(),
      // Outbound event signing secrets: without them every delivery would fail unsigned.
      webhookEndpoints: await app.get(EndpointSecretsRotation).rotate(),
    }),
  },
];
