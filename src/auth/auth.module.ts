import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { MerchantKeysModule } from '../merchant-keys/merchant-keys.module';
import { ShopsModule } from '../shops/shops.module';
import { UsersModule } from '../users/users.module';
import { VendorApiKeysModule } from '../vendor-keys/vendor-api-keys.module';
import { AccessTokenStrategy } from './access-token.strategy';
import { AuthService } from './auth.service';
import { AuthV1Controller } from './auth.v1.controller';
import { AuthV2Controller } from './auth.v2.controller';
import { CredentialChecks } from './credential-checks';
import { SignInLimiter } from './sign-in-limiter';
import { TokenService } from './token.service';
import { VendorAuthService } from './vendor-auth.service';
import { VendorAuthV2Controller } from './vendor-auth.v2.controller';

@Module({
  imports: [
    PassportModule,
    JwtModule.register({}),
    ShopsModule,
    MerchantKeysModule,
    UsersModule,
    VendorApiKeysModule,
  ],
  controllers: [AuthV1Controller, AuthV2Controller, VendorAuthV2Controller],
  providers: [
    TokenService,
    AccessTokenStrategy,
    CredentialChecks,
    AuthService,
    VendorAuthService,
    SignInLimiter,
  ],
  exports: [TokenService],
})
export class AuthModule {}
