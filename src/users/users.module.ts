import { forwardRef, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailModule } from '../mail/mail.module';
import { VendorsModule } from '../vendors/vendors.module';
import { PasswordHasher } from './password-hasher';
import { User, UserSchema } from './user.schema';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { UsersV1Controller } from './users.v1.controller';
import { UsersV2Controller } from './users.v2.controller';
import { VendorUsersService } from './vendor-users.service';

@Module({
  imports: [
    MongooseModule.forFeature([{ name: User.name, schema: UserSchema }]),
    forwardRef(() => VendorsModule),
    MailModule,
  ],
  controllers: [UsersV1Controller, UsersV2Controller],
  providers: [UsersRepository, UsersService, VendorUsersService, PasswordHasher],
  exports: [UsersService, VendorUsersService],
})
export class UsersModule {}
