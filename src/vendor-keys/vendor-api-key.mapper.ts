import type { VendorApiKeyDto } from './dto/vendor-api-key.dto';
import type { VendorApiKey } from './vendor-api-key.schema';
import { normaliseScopes, vendorKeyPrefix } from './vendor-key-format';

/** Field by field: the secret's hash never reaches a response, an event or the audit trail. */
export function toVendorApiKeyResponse(k: VendorApiKey): VendorApiKeyDto {
  return {
    id: String(k._id),
    vendorId: String(k.vendorId),
    prefix: vendorKeyPrefix(k.lookupId),
    name: k.name ?? null,
    scopes: normaliseScopes(k.scopes ?? []),
    status: k.revokedAt ? 'revoked' : 'active',
    createdBy: { kind: k.createdBy.kind, id: String(k.createdBy.id) },
    createdAt: new Date(k.createdAt).toISOString(),
    revokedAt: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
    lastUsedAt: k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : null,
  };
}

/** What the audit trail compares of a key: never its secret or the secret's hash. */
export function vendorKeyAuditView(
  k: Pick<VendorApiKey, 'name' | 'lookupId' | 'scopes' | 'vendorId'> & {
    revokedAt?: Date | null;
  },
): Record<string, unknown> {
  return {
    name: k.name ?? null,
    prefix: vendorKeyPrefix(k.lookupId),
    vendorId: k.vendorId,
    scopes: normaliseScopes(k.scopes ?? []),
    revokedAt: k.revokedAt ?? null,
  };
}
