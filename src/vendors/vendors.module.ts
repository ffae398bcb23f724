import { forwardRef, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ShopsModule } from '../shops/shops.module';
import { UsersModule } from '../users/users.module';
import { Vendor, VendorSchema } from './vendor.schema';
import { VendorsRepository } from './vendors.repository';
import { VendorsService } from './vendors.service';
import { VendorsV1Controller } from './vendors.v1.controller';
import { VendorsV2Controller } from './vendors.v2.controller';

/** Users need vendors (a user's vendorId), and the vendor endpoints need users (users=true, deactivation). */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: Vendor.name, schema: VendorSchema }]),
    ShopsModule,
    forwardRef(() => UsersModule),
  ],
  controllers: [VendorsV1Controller, VendorsV2Controller],
  providers: [VendorsRepository, VendorsService],
  exports: [VendorsService],
})
export class VendorsModule {}
