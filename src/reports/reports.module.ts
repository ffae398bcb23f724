import { Module } from '@nestjs/common';
import { LineItemsModule } from '../line-items/line-items.module';
import { VendorsModule } from '../vendors/vendors.module';
import { NoSellerIdentities, SellerIdentities } from './seller-identities';
import { SellerTaxService } from './seller-tax.service';
import { SellerTaxV1Controller } from './seller-tax.v1.controller';

/**
 * Reports over the money rows (DESIGN §14): the seller tax report. Reads line items and vendors
 * through their features' repositories and identities through the SellerIdentities port; owns no
 * collection. The port answers "no tax profile" for every vendor until the vendor tax profiles bind
 * their implementation here.
 */
@Module({
  imports: [LineItemsModule, VendorsModule],
  controllers: [SellerTaxV1Controller],
  providers: [SellerTaxService, { provide: SellerIdentities, useClass: NoSellerIdentities }],
})
export class ReportsModule {}
