import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BalancesModule } from '../balances/balances.module';
import { LineItemsModule } from '../line-items/line-items.module';
import { TaxProfilesModule } from '../tax-profiles/tax-profiles.module';
import { VendorsModule } from '../vendors/vendors.module';
import { SellerIdentities, TaxProfileSellerIdentities } from './seller-identities';
import { SellerTaxYear, SellerTaxYearSchema } from './seller-tax-year.schema';
import { SellerTaxYearsRepository } from './seller-tax-years.repository';
import { SellerTaxReconcile } from './seller-tax-reconcile.service';
import { SellerTaxSummaries } from './seller-tax-summaries.service';
import { SellerTaxService } from './seller-tax.service';
import { SellerTaxV1Controller } from './seller-tax.v1.controller';

/**
 * Reports over the money rows (DESIGN §14): the seller tax report. Reads line items and vendors
 * through their features' repositories and identities through the SellerIdentities port, bound to
 * the vendor tax profiles; records each export in the audit trail. Owns `seller_tax_years`, the
 * report's figures per vendor and quarter, refreshed from the rows the tally marks.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: SellerTaxYear.name, schema: SellerTaxYearSchema }]),
    LineItemsModule,
    BalancesModule,
    VendorsModule,
    TaxProfilesModule,
  ],
  controllers: [SellerTaxV1Controller],
  providers: [
    SellerTaxService,
    SellerTaxSummaries,
    SellerTaxYearsRepository,
    SellerTaxReconcile,
    { provide: SellerIdentities, useClass: TaxProfileSellerIdentities },
  ],
  exports: [SellerTaxReconcile, SellerTaxSummaries],
})
export class ReportsModule {}
