import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorsModule } from '../vendors/vendors.module';
import { CommissionsService } from './commissions.service';
import { CommissionsV1Controller } from './commissions.v1.controller';
import { SkuCommission, SkuCommissionSchema } from './sku-commission.schema';
import { SkuCommissionsRepository } from './sku-commissions.repository';

@Module({
  imports: [
    MongooseModule.forFeature([{ name: SkuCommission.name, schema: SkuCommissionSchema }]),
    VendorsModule,
  ],
  controllers: [CommissionsV1Controller],
  providers: [SkuCommissionsRepository, CommissionsService],
  exports: [SkuCommissionsRepository],
})
export class CommissionsModule {}
