import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { MerchantKeysModule } from '../merchant-keys/merchant-keys.module';
import { ShopsModule } from '../shops/shops.module';
import { AccessTokenStrategy } from './access-token.strategy';
import { AuthService } from './auth.service';
import { AuthV1Controller } from './auth.v1.controller';
import { AuthV2Controller } from './auth.v2.controller';
import { CredentialChecks } from './credential-checks';
import { TokenService } from './token.service';

@Module({
  imports: [PassportModule, JwtModule.register({}), ShopsModule, MerchantKeysModule],
  controllers: [AuthV1Controller, AuthV2Controller],
  providers: [TokenService, AccessTokenStrategy, CredentialChecks, AuthService],
  exports: [TokenService],
})
export class AuthModule {}
