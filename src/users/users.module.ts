import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailModule } from '../mail/mail.module';
import { PasswordHasher } from './password-hasher';
import { User, UserSchema } from './user.schema';
import { UsersRepository } from './users.repository';
import { UserSessionsService } from './user-sessions.service';
import { UsersService } from './users.service';
import { UsersV1Controller } from './users.v1.controller';
import { UsersV2Controller } from './users.v2.controller';

/**
 * Vendor portal users. Vendors are reached only through the UserVendors port, which the vendors
 * feature binds (vendors/user-vendors.module.ts): this module imports nothing from vendors.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: User.name, schema: UserSchema }]), MailModule],
  controllers: [UsersV1Controller, UsersV2Controller],
  providers: [UsersRepository, UsersService, UserSessionsService, PasswordHasher],
  exports: [UsersService, UserSessionsService],
})
export class UsersModule {}
