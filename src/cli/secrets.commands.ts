import { EndpointSecretsRotation } from '../events/endpoint-secrets-rotation.service';
import { IdempotencyAnswersRotation } from '../idempotency/idempotency-rotation.service';
import { ShopLegalSecretsRotation } from '../shops/shop-legal-secrets.service';
import { ShopSecretsService } from '../shops/shop-secrets.service';
import { TaxProfileSecretsRotation } from '../tax-profiles/tax-profile-secrets.service';
import { PayoutProviderSecretsService } from '../transfers/payout-provider-secrets.service';
import { CliCommand } from './cli-command';

export const secretsCommands: CliCommand[] = [
  {
    name: 'secrets:rotate',
    description:
      'Re-encrypt, under the current DATA_ENCRYPTION_KEY, every shop secret (webhook secrets, platform ' +
      "tokens), every shop's payout provider secrets (Stripe key and webhook secret, PayPal client id " +
      "and secret), every webhook endpoint's signing secrets and every stored Idempotency-Key answer " +
      '(24 h), reading old values with DATA_ENCRYPTION_KEY_PREVIOUS; prints {keyId, shops, resealed, ' +
      'current, unreadable, skipped, payoutProviders: {documents, resealed, current, unreadable, ' +
      'skipped}, webhookEndpoints: {endpoints, resealed, current, unreadable, skipped}, ' +
      'idempotencyAnswers: {answers, resealed, current, unreadable, skipped}, shopLegal: {documents, resealed, ' +
      'current, unreadable, skipped}, taxProfiles: {documents, resealed, current, unreadable, skipped}} (the ' +
      "shops' legal tax ids, the vendors' tax ids and dates of birth).",
    options: [],
    run: async (app) => ({
      ...(await app.get(ShopSecretsService).rotate()),
      // After the shops (a key problem is reported there first); same key, same rules.
      payoutProviders: await app.get(PayoutProviderSecretsService).rotate(),
      // Outbound event signing secrets: without them every delivery would fail unsigned.
      webhookEndpoints: await app.get(EndpointSecretsRotation).rotate(),
      // Stored Idempotency-Key answers (24 h): a retry after the old key is dropped still replays.
      idempotencyAnswers: await app.get(IdempotencyAnswersRotation).rotate(),
      // DESIGN §14: the sealed identity data of documents (shop tax ids; vendor tax ids and dates of birth).
      shopLegal: await app.get(ShopLegalSecretsRotation).rotate(),
      taxProfiles: await app.get(TaxProfileSecretsRotation).rotate(),
    }),
  },
];
