import { Inject, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { actorOf, type Principal } from '../common/auth/principal';
import type { VendorScope } from '../common/auth/scopes';
import { Clock } from '../common/clock/clock';
import { sameDigest, sha256Hex } from '../common/crypto';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../common/errors';
import { CursorPageQueryDto, nextOffset, readCursorPage } from '../common/pagination';
import { ShopScope, shopScope, toObjectId } from '../common/tenancy';
import { authConfig, AuthConfig } from '../config/configuration';
import { UserVendors } from '../users/user-vendors.port';
import {
  CreatedVendorApiKeyDto,
  CreateVendorApiKeyDto,
  MAX_LIVE_VENDOR_KEYS,
  RevokedVendorApiKeyDto,
  VendorApiKeyDto,
  VendorApiKeyListDto,
  VendorApiKeysPageDto,
} from './dto/vendor-api-key.dto';
import { toVendorApiKeyResponse, vendorKeyAuditView } from './vendor-api-key.mapper';
import { KeyCreator, VendorApiKey } from './vendor-api-key.schema';
import { VendorApiKeyQuotasRepository } from './vendor-api-key-quotas.repository';
import { VendorApiKeysRepository } from './vendor-api-keys.repository';
import { mintVendorKey, missingScopes, normaliseScopes, parseVendorKey } from './vendor-key-format';

const REFUSED = 'Invalid vendor API key';
/** `lastUsedAt` is written at most once per hour per key: the per-request check stays one read. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** A usable key at sign-in: what the vendor token is minted from. */
export interface VerifiedVendorKey {
  keyId: string;
  shopId: string;
  vendorId: string;
  scopes: VendorScope[];
}

/** Vendor API keys (DESIGN §12): created, listed and revoked by the shop or a portal user; checked per request. */
@Injectable()
export class VendorApiKeysService {
  constructor(
    private readonly keys: VendorApiKeysRepository,
    private readonly quotas: VendorApiKeyQuotasRepository,
    private readonly vendors: UserVendors,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    @Inject(authConfig.KEY) private readonly auth: AuthConfig,
  ) {}

  /**
   * A new key of the vendor, shown once. `allowed`: the scopes the creator may grant (a portal
   * user's permissions; undefined = every scope). The cap is a place taken for the key on the
   * vendor's quota document before the insert (a conditional `$addToSet`): a 26th live key → 409
   * however many requests race.
   */
  async create(
    scope: ShopScope,
    vendorId: string,
    dto: CreateVendorApiKeyDto,
    createdBy: KeyCreator,
    allowed?: readonly VendorScope[],
  ): Promise<CreatedVendorApiKeyDto> {
    const vendor = await this.vendorOf(scope, vendorId);
    const missing = missingScopes(dto.scopes, allowed);
    if (missing.length > 0) {
      throw new ForbiddenError(`Insufficient scope: you do not hold ${missing.join(', ')}`, {
        missingScopes: missing,
      });
    }
    const vscope = shopScope(scope.shopId, String(vendor._id));
    const _id = new Types.ObjectId();
    if (!(await this.quotas.take(vscope, _id, MAX_LIVE_VENDOR_KEYS))) throw keyCapReached();
    const { lookupId, secret, key } = mintVendorKey(scope.shopId);
    const scopes = normaliseScopes(dto.scopes);
    const name = dto.name ?? null;
    const stamp = this.audit.begin();
    const event = this.audit.created(
      scope,
      stamp,
      'vendor_api_key.create',
      { type: 'vendor_api_key', id: _id },
      { ...vendorKeyAuditView({ name, lookupId, scopes, vendorId: vendor._id }), createdBy },
    );
    let record: VendorApiKey;
    try {
      record = await this.keys.create(
        vscope,
        {
          _id,
          lookupId,
          secretHash: sha256Hex(secret),
          name,
          scopes,
          createdBy,
          vendorActive: vendor.active,
        },
        stamp,
        event,
      );
    } catch (err) {
      await this.quotas.release(vscope, _id);
      throw err;
    }
    await this.audit.commit(scope, this.keys.outbox, stamp, [event], 'all');
    return { id: String(record._id), key, name, scopes, createdAt: new Date(record.createdAt).toISOString() };
  }

  /** v1: one offset page of the vendor's keys, newest first (revoked ones too). */
  async list(
    scope: ShopScope,
    vendorId: string,
    page: { offset: number; limit: number },
  ): Promise<VendorApiKeyListDto> {
    const vscope = await this.vendorScope(scope, vendorId);
    const { total, items } = await this.keys.offsetList(vscope, page);
    return { total, nextOffset: nextOffset(page, total), apiKeys: items.map(toVendorApiKeyResponse) };
  }

  /** V2: one cursor window of the vendor's keys, newest first. */
  async page(scope: ShopScope, vendorId: string, query: CursorPageQueryDto): Promise<VendorApiKeysPageDto> {
    const vscope = await this.vendorScope(scope, vendorId);
    const page = await readCursorPage(
      query,
      this.auth.cursorKey,
      `vendor-api-keys:${vscope.shopId}:${vscope.vendorId}`,
      (window) => this.keys.page(vscope, window),
      (k) => ({ t: new Date(k.createdAt).getTime(), id: String(k._id) }),
    );
    return {
      items: page.items.map(toVendorApiKeyResponse),
      pageInfo: page.pageInfo,
      totalCount: page.totalCount,
    };
  }

  /** Soft revocation: every token minted from the key is refused from the next request on. */
  async revoke(scope: ShopScope, vendorId: string, keyId: string): Promise<RevokedVendorApiKeyDto> {
    const vscope = await this.vendorScope(scope, vendorId);
    const current = toObjectId(keyId) ? await this.keys.findById(vscope, keyId) : null;
    if (!current) throw new NotFoundError('Vendor API key');
    const at = this.clock.now();
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'vendor_api_key.revoke',
      { type: 'vendor_api_key', id: current._id },
      vendorKeyAuditView(current),
      vendorKeyAuditView({ ...current, revokedAt: at }),
    );
    const { key, revokedNow } = await this.keys.revoke(vscope, current._id, at, stamp, event);
    if (!key) throw new NotFoundError('Vendor API key');
    if (revokedNow) {
      await this.quotas.release(vscope, key._id);
      await this.audit.commit(scope, this.keys.outbox, stamp, [event], [key._id]);
    }
    return { message: 'Vendor API key revoked', apiKey: toVendorApiKeyResponse(key) };
  }

  /**
   * A portal user's own vendor's keys (`/settings/api-keys`): never with scopes beyond the user's
   * permissions (as checked on this request), and never from a token minted from a key.
   */
  async createOwn(principal: Principal, dto: CreateVendorApiKeyDto): Promise<CreatedVendorApiKeyDto> {
    const { scope, vendorId } = portalUser(principal);
    return this.create(scope, vendorId, dto, actorOf(principal), principal.permissions);
  }

  pageOwn(principal: Principal, query: CursorPageQueryDto): Promise<VendorApiKeysPageDto> {
    const { scope, vendorId } = portalUser(principal);
    return this.page(scope, vendorId, query);
  }

  revokeOwn(principal: Principal, keyId: string): Promise<RevokedVendorApiKeyDto> {
    const { scope, vendorId } = portalUser(principal);
    return this.revoke(scope, vendorId, keyId);
  }

  /** The key as events carry it (`data.object`); the shop scope suffices (ids are unique). */
  async get(scope: ShopScope, keyId: string): Promise<VendorApiKeyDto> {
    const key = await this.keys.findById(scope, keyId);
    if (!key) throw new NotFoundError('Vendor API key');
    return toVendorApiKeyResponse(key);
  }

  /**
   * Sign-in with a raw key: the key when it is genuine, not revoked and its vendor active; else 401.
   * The vendor itself is read too (sign-in only): a key created while its vendor was being
   * deactivated may carry a stale copy of the flag, and must not mint a token.
   */
  async verifyKey(rawKey: string): Promise<VerifiedVendorKey> {
    const parsed = parseVendorKey(rawKey);
    if (!parsed) throw new UnauthorizedError(REFUSED);
    const scope = shopScope(parsed.shopId);
    const record = await this.keys.findByLookupId(scope, parsed.lookupId);
    const genuine = record !== null && sameDigest(record.secretHash, sha256Hex(parsed.secret));
    if (!genuine || record.revokedAt || record.vendorActive === false) throw new UnauthorizedError(REFUSED);
    const vendor = await this.vendors.findVendor(scope, String(record.vendorId));
    // Refused, not repaired: a repair racing a reactivation could disable the keys of an active vendor.
    if (!vendor?.active) throw new UnauthorizedError(REFUSED);
    const now = this.clock.now();
    await this.keys.touch(shopScope(parsed.shopId), String(record._id), record.lastUsedAt ?? null, now);
    return {
      keyId: String(record._id),
      shopId: String(record.shopId),
      vendorId: String(record.vendorId),
      scopes: normaliseScopes(record.scopes ?? []),
    };
  }

  /**
   * Per-request check of a key token (one read): the key is the token's vendor's, not revoked, and
   * its vendor active. Answers the key's scopes (the token's permissions on this request).
   */
  async assertUsable(scope: ShopScope, keyId: string): Promise<VendorScope[]> {
    const state = await this.keys.state(scope, keyId);
    if (!state || state.revokedAt || state.vendorActive === false)
      throw new UnauthorizedError('The vendor API key of this token was revoked or its vendor deactivated');
    const now = this.clock.now();
    const seen = state.lastUsedAt ?? null;
    if (!seen || now.getTime() - new Date(seen).getTime() >= TOUCH_EVERY_MS)
      await this.keys.touch(scope, keyId, seen, now);
    return normaliseScopes(state.scopes ?? []);
  }

  /** Vendor (de)activation: its keys follow (refused from the next request on while it is inactive). */
  async setVendorActive(scope: ShopScope, vendorId: string, active: boolean): Promise<void> {
    await this.keys.setVendorActive(shopScope(scope.shopId, vendorId), active);
  }

  private async vendorOf(scope: ShopScope, vendorId: string) {
    const vendor = await this.vendors.findVendor(shopScope(scope.shopId), vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    return vendor;
  }

  private async vendorScope(scope: ShopScope, vendorId: string): Promise<ShopScope> {
    const vendor = await this.vendorOf(scope, vendorId);
    return shopScope(scope.shopId, String(vendor._id));
  }
}

function keyCapReached(): ConflictError {
  return new ConflictError(
    `This vendor already has ${MAX_LIVE_VENDOR_KEYS} live API keys, the most it can have; revoke one before ` +
      'creating another',
  );
}

/** A portal user's vendor token; a token minted from a key cannot manage keys (403). */
function portalUser(principal: Principal): { scope: ShopScope; vendorId: string } {
  if (principal.kind !== 'vendor' || !principal.userId || principal.keyId)
    throw new ForbiddenError(
      'A token minted from a vendor API key cannot manage API keys; sign in as a portal user',
    );
  return { scope: shopScope(principal.shopId, principal.vendorId), vendorId: principal.vendorId! };
}
