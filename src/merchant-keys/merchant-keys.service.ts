import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import { Clock } from '../common/clock/clock';
import { randomBase62, sameDigest, sha256Hex } from '../common/crypto';
import { ConflictError, NotFoundError, UnauthorizedError } from '../common/errors';
import { nextOffset } from '../common/pagination';
import { ShopScope, shopScope, toObjectId } from '../common/tenancy';
import {
  CreatedMerchantKeyDto,
  MerchantKeyListDto,
  RevokedMerchantKeyDto,
  RotatedMerchantKeyDto,
} from './dto/merchant-key.dto';
import { MerchantKey } from './merchant-key.schema';
import { MERCHANT_KEY_PREFIX, merchantKeyStatus, toMerchantKeyResponse } from './merchant-key.mapper';
import { MerchantKeysRepository } from './merchant-keys.repository';

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
/**
 * Active keys per shop (and, separately, rotated keys in their grace window): each usable key has
 * its own request budget, so an unbounded number would multiply the shop's rate limit.
 */
export const MAX_ACTIVE_MERCHANT_KEYS = 25;
const KEY_RE = /^mk_live_([0-9a-f]{24})([0-9a-f]{8})_([A-Za-z0-9]{40})$/;

/** The lookup id a raw merchant key names (the account its sign-in failures count for), or null. */
export function merchantKeyLookupId(rawKey: unknown): string | null {
  const m = typeof rawKey === 'string' ? KEY_RE.exec(rawKey) : null;
  return m ? m[1] + m[2] : null;
}

@Injectable()
export class MerchantKeysService {
  constructor(
    private readonly keys: MerchantKeysRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * A 26th active key → 409 (DESIGN §4: the request is valid, the shop's state refuses it; revoking
   * a key frees a place). Counted again after the insert, so concurrent creations cannot pass the cap.
   */
  async create(scope: ShopScope, name?: string): Promise<CreatedMerchantKeyDto> {
    if ((await this.keys.countActive(scope)) >= MAX_ACTIVE_MERCHANT_KEYS) throw keyCapReached();
    const stamp = this.audit.begin();
    const { record, key, event } = await this.mint(scope, name ?? null, stamp);
    if ((await this.keys.countActive(scope)) > MAX_ACTIVE_MERCHANT_KEYS) {
      // Lost a race for the last place: withdraw the key just made (its unrelayed event goes with it).
      await this.keys.deleteById(scope, record._id);
      throw keyCapReached();
    }
    await this.audit.commit(scope, this.keys.outbox, stamp, [event], 'all');
    return { id: String(record._id), key, createdAt: record.createdAt.toISOString() };
  }

  async list(scope: ShopScope, page: { offset: number; limit: number }): Promise<MerchantKeyListDto> {
    const { total, items } = await this.keys.page(scope, page);
    const now = this.clock.now();
    return {
      total,
      nextOffset: nextOffset(page, total),
      merchantKeys: items.map((k) => toMerchantKeyResponse(k, now)),
    };
  }

  /** New key now; the old one keeps working for 24 h, then stops. A key can be rotated once. */
  async rotate(scope: ShopScope, id: string): Promise<RotatedMerchantKeyDto> {
    const current = await this.get(scope, id);
    const now = this.clock.now();
    if (merchantKeyStatus(current, now) !== 'active') {
      throw new ConflictError(
        `Only an active key can be rotated; this key is ${merchantKeyStatus(current, now)}`,
      );
    }
    if ((await this.keys.countExpiring(scope, now)) >= MAX_ACTIVE_MERCHANT_KEYS) {
      throw new ConflictError(
        `At most ${MAX_ACTIVE_MERCHANT_KEYS} rotated merchant keys can be in their 24-hour grace window; ` +
          'revoke one of them first',
      );
    }
    const stamp = this.audit.begin();
    const { record, key, event: created } = await this.mint(scope, current.name, stamp);
    const expiresAt = new Date(now.getTime() + ROTATION_GRACE_MS);
    const rotated = this.audit.changed(
      scope,
      stamp,
      'merchant_key.rotate',
      { type: 'merchant_key', id: current._id },
      keyView(current),
      { ...keyView(current), expiresAt, replacedBy: record._id },
    );
    const previous = await this.keys.markRotated(scope, current._id, expiresAt, record._id, stamp, rotated);
    if (!previous) {
      // Lost a race with another rotation or a revocation: withdraw the key we just made (its
      // creation event, not yet relayed, goes with it).
      await this.keys.deleteById(scope, record._id);
      throw new ConflictError('The key was rotated or revoked concurrently');
    }
    // Both documents carry this write's key: relayed together once the rotation holds.
    await this.audit.commit(scope, this.keys.outbox, stamp, [created, rotated], [record._id, previous._id]);
    return {
      id: String(record._id),
      key,
      createdAt: record.createdAt.toISOString(),
      previousKey: toMerchantKeyResponse(previous, now),
    };
  }

  /** Every token minted from the key is refused from the next request on. */
  async revoke(scope: ShopScope, id: string): Promise<RevokedMerchantKeyDto> {
    const current = await this.get(scope, id);
    const at = this.clock.now();
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'merchant_key.revoke',
      { type: 'merchant_key', id: current._id },
      keyView(current),
      { ...keyView(current), revokedAt: at },
    );
    const { key: revoked, revokedNow } = await this.keys.revoke(scope, current._id, at, stamp, event);
    if (!revoked) throw new NotFoundError('Merchant key');
    if (revokedNow) await this.audit.commit(scope, this.keys.outbox, stamp, [event], [revoked._id]);
    return { message: 'Merchant key revoked', merchantKey: toMerchantKeyResponse(revoked, this.clock.now()) };
  }

  /** Sign-in with a raw key: returns the key record when the key is genuine and usable. */
  async verifyKey(rawKey: string): Promise<MerchantKey> {
    const m = KEY_RE.exec(String(rawKey ?? ''));
    if (!m) throw new UnauthorizedError('Invalid merchant API key');
    const record = await this.keys.findByLookupId(shopScope(m[1]), m[1] + m[2]);
    if (!record || !sameDigest(record.secretHash, sha256Hex(m[3])) || !this.usable(record)) {
      throw new UnauthorizedError('Invalid merchant API key');
    }
    return record;
  }

  /** Per-request check of the key a merchant token names: revoked → at once; rotated → after the grace window. */
  async assertUsable(scope: ShopScope, keyId: string): Promise<void> {
    const record = await this.keys.findById(scope, keyId);
    if (!record || !this.usable(record))
      throw new UnauthorizedError('The merchant key of this token was revoked or has expired');
  }

  private usable(record: MerchantKey): boolean {
    const status = merchantKeyStatus(record, this.clock.now());
    return status === 'active' || status === 'expiring';
  }

  private async get(scope: ShopScope, id: string): Promise<MerchantKey> {
    const record = toObjectId(id) ? await this.keys.findById(scope, id) : null;
    if (!record) throw new NotFoundError('Merchant key');
    return record;
  }

  /** A new key record, with its creation event in its outbox (the secret never enters the event). */
  private async mint(
    scope: ShopScope,
    name: string | null,
    stamp: AuditStamp | null,
  ): Promise<{ record: MerchantKey & { _id: Types.ObjectId }; key: string; event: AuditRecord | null }> {
    const _id = new Types.ObjectId();
    const lookupId = scope.shopId + randomBytes(4).toString('hex');
    const secret = randomBase62(40);
    const event = this.audit.created(
      scope,
      stamp,
      'merchant_key.create',
      { type: 'merchant_key', id: _id },
      {
        name,
        keyPrefix: `${MERCHANT_KEY_PREFIX}${lookupId}_…`,
      },
    );
    const record = await this.keys.create(
      scope,
      { _id, lookupId, secretHash: sha256Hex(secret), name },
      stamp,
      event,
    );
    return { record, key: `${MERCHANT_KEY_PREFIX}${lookupId}_${secret}`, event };
  }
}

function keyCapReached(): ConflictError {
  return new ConflictError(
    `This shop already has ${MAX_ACTIVE_MERCHANT_KEYS} active merchant keys, the most it can have; ` +
      'revoke one (DELETE /v1/merchant-keys/{id}) before creating another',
  );
}

/** What the audit trail compares of a key: never its secret or the secret's hash. */
function keyView(k: MerchantKey): Record<string, unknown> {
  return {
    name: k.name,
    keyPrefix: `${MERCHANT_KEY_PREFIX}${k.lookupId}_…`,
    expiresAt: k.expiresAt ?? null,
    revokedAt: k.revokedAt ?? null,
    replacedBy: k.replacedBy ?? null,
  };
}
