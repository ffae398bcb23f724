import { Global, Module } from '@nestjs/common';
import {
  CredentialRateLimitGuard,
  ProviderWebhookRateLimitGuard,
  SignInRateLimitGuard,
} from './rate-limit.guards';
import { RateLimits } from './rate-limits.service';

/** Rate limits in Redis, shared by every route's guards (global: the auth decorators use them everywhere). */
@Global()
@Module({
  providers: [RateLimits, CredentialRateLimitGuard, SignInRateLimitGuard, ProviderWebhookRateLimitGuard],
  exports: [RateLimits, CredentialRateLimitGuard, SignInRateLimitGuard, ProviderWebhookRateLimitGuard],
})
export class RateLimitsModule {}
