import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { DataCipher } from '../common/secrets/data-cipher';
import { ShopLegalRepository } from './shop-legal.repository';
import { ShopLegalSecretsRotation } from './shop-legal-secrets.service';
import { ShopLegalService } from './shop-legal.service';
import { ShopLegalV1Controller } from './shop-legal.v1.controller';
import { ShopSecretsService } from './shop-secrets.service';
import { Shop, ShopSchema } from './shop.schema';
import { ShopProfileService } from './shop-profile.service';
import { ShopProfileV1Controller } from './shop-profile.v1.controller';
import { ShopSettingsService } from './shop-settings.service';
import { ShopSettingsV1Controller } from './shop-settings.v1.controller';
import { ShopsRepository } from './shops.repository';
import { ShopsService } from './shops.service';

@Module({
  imports: [MongooseModule.forFeature([{ name: Shop.name, schema: ShopSchema }])],
  controllers: [ShopSettingsV1Controller, ShopProfileV1Controller, ShopLegalV1Controller],
  providers: [
    ShopsRepository,
    ShopsService,
    ShopSettingsService,
    ShopProfileService,
    DataCipher,
    ShopSecretsService,
    ShopLegalRepository,
    ShopLegalService,
    ShopLegalSecretsRotation,
  ],
  exports: [ShopsService, ShopsRepository, ShopSecretsService, ShopLegalService, ShopLegalSecretsRotation],
})
export class ShopsModule {}
