import { ShopSecretsService } from '../shops/shop-secrets.service';
import { CliCommand } from './cli-command';

export const secretsCommands: CliCommand[] = [
  {
    name: 'secrets:rotate',
    description:
      'Re-encrypt every shop secret (webhook secrets, platform tokens) under the current DATA_ENCRYPTION_KEY, ' +
      'reading old values with DATA_ENCRYPTION_KEY_PREVIOUS; prints {keyId, shops, resealed, current, unreadable, skipped}.',
    options: [],
    run: async (app) => ({ ...(await app.get(ShopSecretsService).rotate()) }),
  },
];
