import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { DataCipher } from '../common/secrets/data-cipher';
import { VendorsModule } from '../vendors/vendors.module';
import { VendorTaxProfile, VendorTaxProfileSchema } from './tax-profile.schema';
import { TaxProfileSecretsRotation } from './tax-profile-secrets.service';
import {
  OwnTaxProfileController,
  TaxProfilesV1Controller,
  TaxProfilesV2Controller,
} from './tax-profiles.controllers';
import { TaxProfilesRepository } from './tax-profiles.repository';
import { TaxProfilesService } from './tax-profiles.service';

/**
 * Vendor tax profiles (DESIGN §14), their own collection beside the vendor: the vendors module stays
 * untouched, the sealed identity data lives apart from what every vendor read returns, and the
 * features that read it (documents, the seller tax report, payout eligibility) import this module.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: VendorTaxProfile.name, schema: VendorTaxProfileSchema }]),
    VendorsModule,
  ],
  controllers: [TaxProfilesV1Controller, TaxProfilesV2Controller, OwnTaxProfileController],
  providers: [TaxProfilesRepository, TaxProfilesService, TaxProfileSecretsRotation, DataCipher],
  exports: [TaxProfilesService, TaxProfileSecretsRotation],
})
export class TaxProfilesModule {}
