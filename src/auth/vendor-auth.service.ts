import { Injectable } from '@nestjs/common';
import { UnauthorizedError } from '../common/errors';
import { shopScope } from '../common/tenancy';
import { ShopsService, normaliseDomain } from '../shops/shops.service';
import { UserSessionsService } from '../users/user-sessions.service';
import { VendorAuthenticateDto, VendorTokenDto } from './dto/vendor-auth.dto';
import { SignInLimiter } from './sign-in-limiter';
import { TokenService } from './token.service';

const REFUSED = 'Invalid shop domain, email or password';

@Injectable()
export class VendorAuthService {
  constructor(
    private readonly shops: ShopsService,
    private readonly users: UserSessionsService,
    private readonly tokens: TokenService,
    private readonly limiter: SignInLimiter,
  ) {}

  /**
   * Vendor portal sign-in → a 24 h vendor token carrying the user's credential version. Every
   * refusal is the same 401 (no account enumeration) and counts as a failure of this client address
   * for this shop + email; once it has used up its failures, 429 with Retry-After (SignInLimiter).
   */
  async signIn(body: VendorAuthenticateDto, clientAddress: string): Promise<VendorTokenDto> {
    const domain = normaliseDomain(body.shopDomain);
    const email = body.email.trim().toLowerCase();
    const { shop, user } = await this.limiter.attempt(
      `vendor:${domain}\n${email}`,
      clientAddress,
      async () => {
        const shop = await this.shops.getByDomain(domain).catch(() => null);
        const scope = shop ? shopScope(String(shop._id)) : null;
        const user = await this.users.authenticate(scope, email, body.password);
        if (!shop || !user) throw new UnauthorizedError(REFUSED);
        return { shop, user };
      },
    );
    const { token, expiresIn } = this.tokens.issue({
      kind: 'vendor',
      shopId: String(shop._id),
      shopDomain: shop.domain,
      vendorId: user.vendorId,
      userId: user.userId,
      credentialVersion: user.credentialVersion,
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
