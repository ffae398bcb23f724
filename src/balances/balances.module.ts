import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { VendorBalance, VendorBalanceSchema } from './vendor-balance.schema';
import { SystemTaxMarksRepository } from './system-tax-marks.repository';
import { VendorBalancesRepository } from './vendor-balances.repository';

/**
 * The vendors' running balances (DESIGN §8): written by the payout engine (batches applied) and by
 * the tally of line-item changes (due and pending sums), read by the balance endpoints. A module of
 * its own so line items (the tally) and payouts (the engine) share it without a cycle.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: VendorBalance.name, schema: VendorBalanceSchema }])],
  providers: [VendorBalancesRepository, SystemTaxMarksRepository],
  exports: [VendorBalancesRepository, SystemTaxMarksRepository],
})
export class BalancesModule {}
