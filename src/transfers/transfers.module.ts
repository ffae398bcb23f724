import { EventSinkModule } from '../event-port/event-sink';
import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AdjustmentsModule } from '../adjustments/adjustments.module';
import { TokenCipher } from '../fulfillments/platform/token-cipher';
import { IngestionModule } from '../ingestion/ingestion.module';
import { ShopsModule } from '../shops/shops.module';
import { VendorsModule } from '../vendors/vendors.module';
import { BankFileService } from './bank-file.service';
import { PayoutMethod, PayoutMethodSchema } from './payout-method.schema';
import {
  OwnPayoutMethodController,
  PayoutMethodsV1Controller,
  PayoutMethodsV2Controller,
} from './payout-methods.controllers';
import { PayoutMethodsRepository } from './payout-methods.repository';
import { PayoutMethodsService } from './payout-methods.service';
import { PayoutProviders, PayoutProvidersSchema } from './payout-provider.schema';
import { PayoutProvidersRepository } from './payout-providers.repository';
import { PayoutProviderSecretsService } from './payout-provider-secrets.service';
import { PayoutProvidersService } from './payout-providers.service';
import { PayoutProvidersV1Controller } from './payout-providers.v1.controller';
import { ProviderWebhooksController } from './provider-webhooks.controller';
import { ProviderWebhooksService } from './provider-webhooks.service';
import { ManualRail } from './rails/manual.rail';
import { PayoutRails } from './rails/payout-rails';
import { PaypalRail } from './rails/paypal.rail';
import { ProviderCalls } from './rails/provider-calls';
import { StripeConnectRail } from './rails/stripe-connect.rail';
import { Transfer, TransferSchema } from './transfer.schema';
import { TransferQueue } from './transfer-queue';
import { TransferFollowUp } from './transfer-follow-up.service';
import { TransferRunner } from './transfer-runner.service';
import { TransferEventsFinisher } from './transfer-events';
import { SystemTransferEventsRepository, SystemTransfersRepository } from './system-transfers.repository';
import { TransfersRepository } from './transfers.repository';
import { TransfersService } from './transfers.service';
import { TransfersV1Controller } from './transfers.v1.controller';
import { VendorTransfersRepository } from './vendor-transfers.repository';

/**
 * Payout rails (DESIGN §10): vendors' payout methods, shops' provider credentials, one transfer per
 * paid batch driven through its PayoutRail, provider webhooks through the ingestion inbox. The
 * payout engine calls `TransfersService.createForPaidBatch` (and payouts:reconcile reads transfers
 * through TransfersRepository); nothing here reads payout batches, so PayoutsModule imports this
 * module without a cycle.
 * The queue processors are registered by the ProcessorsModule.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Transfer.name, schema: TransferSchema },
      { name: PayoutMethod.name, schema: PayoutMethodSchema },
      { name: PayoutProviders.name, schema: PayoutProvidersSchema },
    ]),
    AdjustmentsModule,
    EventSinkModule,
    IngestionModule,
    ShopsModule,
    VendorsModule,
  ],
  controllers: [
    TransfersV1Controller,
    PayoutMethodsV1Controller,
    PayoutMethodsV2Controller,
    OwnPayoutMethodController,
    PayoutProvidersV1Controller,
    ProviderWebhooksController,
  ],
  providers: [
    TokenCipher,
    TransfersRepository,
    SystemTransfersRepository,
    SystemTransferEventsRepository,
    TransferEventsFinisher,
    PayoutMethodsRepository,
    PayoutProvidersRepository,
    PayoutMethodsService,
    PayoutProvidersService,
    PayoutProviderSecretsService,
    TransfersService,
    TransferRunner,
    TransferFollowUp,
    TransferQueue,
    BankFileService,
    ProviderWebhooksService,
    ProviderCalls,
    ManualRail,
    StripeConnectRail,
    PaypalRail,
    PayoutRails,
    VendorTransfersRepository,
  ],
  exports: [
    TransfersService,
    TransferRunner,
    TransferQueue,
    SystemTransfersRepository,
    TransfersRepository,
    PayoutProviderSecretsService,
    PayoutProvidersService,
    VendorTransfersRepository,
  ],
})
export class TransfersModule {}
