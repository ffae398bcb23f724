import { MerchantKeyDto, MerchantKeyStatus } from './dto/merchant-key.dto';
import { MerchantKey } from './merchant-key.schema';

export const MERCHANT_KEY_PREFIX = 'mk_live_';

export function merchantKeyStatus(
  key: Pick<MerchantKey, 'revokedAt' | 'expiresAt'>,
  now: Date,
): MerchantKeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt) return now < key.expiresAt ? 'expiring' : 'expired';
  return 'active';
}

export function toMerchantKeyResponse(key: MerchantKey, now: Date): MerchantKeyDto {
  return {
    id: String(key._id),
    keyPrefix: `${MERCHANT_KEY_PREFIX}${key.lookupId}_…`,
    name: key.name ?? null,
    status: merchantKeyStatus(key, now),
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt ? key.expiresAt.toISOString() : null,
    revokedAt: key.revokedAt ? key.revokedAt.toISOString() : null,
    replacedBy: key.replacedBy ? String(key.replacedBy) : null,
  };
}
