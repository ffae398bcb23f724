import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ShopsModule } from '../shops/shops.module';
import { UsersModule } from '../users/users.module';
import { VendorApiKeysModule } from '../vendor-keys/vendor-api-keys.module';
import { VendorUsersService } from './vendor-users.service';
import { Vendor, VendorSchema } from './vendor.schema';
import { VendorsRepository } from './vendors.repository';
import { VendorsService } from './vendors.service';
import { VendorsV1Controller } from './vendors.v1.controller';
import { VendorsV2Controller } from './vendors.v2.controller';

/**
 * Vendors, and the only repository of the vendors collection (other features read vendors through
 * VendorsRepository or VendorsService). Depends on users (a vendor's users are listed with it and
 * follow its active flag), and on vendor API keys (they follow it too); users reach vendors only through their UserVendors port.
 */
@Module({
  imports: [
    MongooseModule.forFeature([{ name: Vendor.name, schema: VendorSchema }]),
    ShopsModule,
    UsersModule,
    VendorApiKeysModule,
  ],
  controllers: [VendorsV1Controller, VendorsV2Controller],
  providers: [VendorsRepository, VendorsService, VendorUsersService],
  exports: [VendorsRepository, VendorsService],
})
export class VendorsModule {}
