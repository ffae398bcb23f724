import { Injectable } from '@nestjs/common';
import { RateLimitedError, UnauthorizedError } from '../common/errors';
import { shopScope } from '../common/tenancy';
import { ShopsService, normaliseDomain } from '../shops/shops.service';
import { UsersService } from '../users/users.service';
import { VendorAuthenticateDto, VendorTokenDto } from './dto/vendor-auth.dto';
import { SignInLimiter } from './sign-in-limiter';
import { TokenService } from './token.service';

const REFUSED = 'Invalid shop domain, email or password';

@Injectable()
export class VendorAuthService {
  constructor(
    private readonly shops: ShopsService,
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly limiter: SignInLimiter,
  ) {}

  /**
   * Vendor portal sign-in → a 24 h vendor token. Every refusal is the same 401 (no account
   * enumeration) and counts towards the limit; once it is reached, 429 with Retry-After, checked
   * before the password so the limit cannot be probed around.
   */
  async signIn(body: VendorAuthenticateDto, clientAddress: string): Promise<VendorTokenDto> {
    const domain = normaliseDomain(body.shopDomain);
    const email = body.email.trim().toLowerCase();
    const key = this.limiter.key(domain, email, clientAddress);
    const wait = await this.limiter.retryAfter(key);
    if (wait > 0) throw new RateLimitedError(wait, 'Too many failed sign-in attempts; try again later');

    const shop = await this.shops.getByDomain(domain).catch(() => null);
    const scope = shop ? shopScope(String(shop._id)) : null;
    const user = await this.users.authenticate(scope, email, body.password);
    if (!shop || !user) {
      await this.limiter.recordFailure(key);
      throw new UnauthorizedError(REFUSED);
    }
    await this.limiter.clear(key);
    const { token, expiresIn } = this.tokens.issue({
      kind: 'vendor',
      shopId: String(shop._id),
      shopDomain: shop.domain,
      vendorId: user.vendorId,
      userId: user.userId,
    });
    return {
      token,
      expiresIn,
      scope: 'vendor',
      shopDomain: shop.domain,
      vendorId: user.vendorId,
      userId: user.userId,
    };
  }
}
