import { Global, Module } from '@nestjs/common';
import { CredentialRateLimitGuard, SignInRateLimitGuard } from './rate-limit.guards';
import { RateLimits } from './rate-limits.service';

/** Rate limits in Redis, shared by every route's guards (global: the auth decorators use them everywhere). */
@Global()
@Module({
  providers: [RateLimits, CredentialRateLimitGuard, SignInRateLimitGuard],
  exports: [RateLimits, CredentialRateLimitGuard, SignInRateLimitGuard],
})
export class RateLimitsModule {}
