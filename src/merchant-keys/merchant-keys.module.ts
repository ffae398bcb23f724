import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MerchantKey, MerchantKeySchema } from './merchant-key.schema';
import { MerchantKeysRepository } from './merchant-keys.repository';
import { MerchantKeysService } from './merchant-keys.service';
import { MerchantKeysV1Controller } from './merchant-keys.v1.controller';

@Module({
  imports: [MongooseModule.forFeature([{ name: MerchantKey.name, schema: MerchantKeySchema }])],
  controllers: [MerchantKeysV1Controller],
  providers: [MerchantKeysRepository, MerchantKeysService],
  exports: [MerchantKeysService],
})
export class MerchantKeysModule {}
