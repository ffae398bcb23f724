import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ShopsModule } from '../shops/shops.module';
import { VendorsModule } from '../vendors/vendors.module';
import { CommissionRuleGroup, CommissionRuleGroupSchema } from './commission-rule-group.schema';
import { CommissionRule, CommissionRuleSchema } from './commission-rule.schema';
import { CommissionRulesRepository } from './commission-rules.repository';
import { CommissionRulesService } from './commission-rules.service';
import { CommissionRulesV1Controller } from './commission-rules.v1.controller';
import { CommissionRuleReadsRepository } from './commission-rule-reads.repository';
import { RulesCache } from './rules-cache';
import { CommissionsService } from './commissions.service';
import { CommissionsV1Controller } from './commissions.v1.controller';
import { SkuCommission, SkuCommissionSchema } from './sku-commission.schema';
import { SkuCommissionsRepository } from './sku-commissions.repository';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: SkuCommission.name, schema: SkuCommissionSchema },
      { name: CommissionRule.name, schema: CommissionRuleSchema },
      { name: CommissionRuleGroup.name, schema: CommissionRuleGroupSchema },
    ]),
    VendorsModule,
    ShopsModule,
  ],
  controllers: [CommissionsV1Controller, CommissionRulesV1Controller],
  providers: [
    SkuCommissionsRepository,
    CommissionRuleReadsRepository,
    // this process's rules (rules-cache.ts): one per app, whatever imports the module
    { provide: RulesCache, useFactory: () => new RulesCache() },
    CommissionsService,
    CommissionRulesRepository,
    CommissionRulesService,
  ],
  exports: [SkuCommissionsRepository, CommissionRulesService, CommissionRuleReadsRepository, RulesCache],
})
export class CommissionsModule {}
