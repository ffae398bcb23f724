import { Module } from '@nestjs/common';
import { LineItemsModule } from '../line-items/line-items.module';
import { TaxProfilesModule } from '../tax-profiles/tax-profiles.module';
import { VendorsModule } from '../vendors/vendors.module';
import { SellerIdentities, TaxProfileSellerIdentities } from './seller-identities';
import { SellerTaxService } from './seller-tax.service';
import { SellerTaxV1Controller } from './seller-tax.v1.controller';

/**
 * Reports over the money rows (DESIGN §14): the seller tax report. Reads line items and vendors
 * through their features' repositories and identities through the SellerIdentities port, bound to
 * the vendor tax profiles; records each export in the audit trail. Owns no collection.
 */
@Module({
  imports: [LineItemsModule, VendorsModule, TaxProfilesModule],
  controllers: [SellerTaxV1Controller],
  providers: [SellerTaxService, { provide: SellerIdentities, useClass: TaxProfileSellerIdentities }],
})
export class ReportsModule {}
