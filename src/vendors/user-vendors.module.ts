import { Global, Module } from '@nestjs/common';
import { UserVendors } from '../users/user-vendors.port';
import { VendorsModule } from './vendors.module';
import { VendorsService } from './vendors.service';

/**
 * Binds the users feature's UserVendors port to VendorsService for the whole app. Global because
 * UsersModule cannot import VendorsModule (VendorsModule imports UsersModule); this module exports
 * nothing else.
 */
@Global()
@Module({
  imports: [VendorsModule],
  providers: [{ provide: UserVendors, useExisting: VendorsService }],
  exports: [UserVendors],
})
export class UserVendorsModule {}
