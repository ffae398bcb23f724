import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OwnApiKeysController } from './own-api-keys.controller';
import {
  VendorApiKey,
  VendorApiKeyQuota,
  VendorApiKeyQuotaSchema,
  VendorApiKeySchema,
} from './vendor-api-key.schema';
import { VendorApiKeyQuotasRepository } from './vendor-api-key-quotas.repository';
import { VendorApiKeysRepository } from './vendor-api-keys.repository';
import { VendorApiKeysService } from './vendor-api-keys.service';
import { VendorApiKeysV1Controller } from './vendor-api-keys.v1.controller';
import { VendorApiKeysV2Controller } from './vendor-api-keys.v2.controller';

/**
 * Vendor API keys (DESIGN §12). Vendors are reached through the users feature's UserVendors port
 * (bound app-wide by vendors/user-vendors.module.ts); the vendors feature calls this one when a
 * vendor is (de)activated, and auth calls it at sign-in and on every request of a key token.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: VendorApiKey.name, schema: VendorApiKeySchema },
      { name: VendorApiKeyQuota.name, schema: VendorApiKeyQuotaSchema },
    ]),
  ],
  controllers: [VendorApiKeysV1Controller, VendorApiKeysV2Controller, OwnApiKeysController],
  providers: [VendorApiKeysRepository, VendorApiKeyQuotasRepository, VendorApiKeysService],
  exports: [VendorApiKeysService],
})
export class VendorApiKeysModule {}
