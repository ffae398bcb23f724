import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorsModule } from '../vendors/vendors.module';
import { CommissionRule, CommissionRuleSchema } from './commission-rule.schema';
import { CommissionRuleReadsRepository } from './commission-rule-reads.repository';
import { CommissionsService } from './commissions.service';
import { CommissionsV1Controller } from './commissions.v1.controller';
import { SkuCommission, SkuCommissionSchema } from './sku-commission.schema';
import { SkuCommissionsRepository } from './sku-commissions.repository';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: SkuCommission.name, schema: SkuCommissionSchema },
      { name: CommissionRule.name, schema: CommissionRuleSchema },
    ]),
    VendorsModule,
  ],
  controllers: [CommissionsV1Controller],
  providers: [SkuCommissionsRepository, CommissionRuleReadsRepository, CommissionsService],
  exports: [SkuCommissionsRepository, CommissionRuleReadsRepository],
})
export class CommissionsModule {}
