import { ErrorDoc, notFound } from '../common/http/api-errors.decorator';
import { MAX_LIVE_VENDOR_KEYS } from './dto/vendor-api-key.dto';

/** The documentation the keys' routes share (v1, V2 and the vendor's own settings). */
export const KEY_CAP_CONFLICT: ErrorDoc = {
  status: 409,
  description: `The vendor already has ${MAX_LIVE_VENDOR_KEYS} live (unrevoked) keys`,
  message: `This vendor already has ${MAX_LIVE_VENDOR_KEYS} live API keys, the most it can have; revoke one before creating another`,
};

export const VENDOR_NOT_FOUND = notFound('Vendor');
export const KEY_NOT_FOUND: ErrorDoc = {
  status: 404,
  description: 'Unknown vendor or key, or one of another shop or vendor',
  message: 'Vendor API key not found',
};

export const CREATE_DESCRIPTION =
  `The key (\`vk_live_…\`) is shown only in this response and stored hashed. At most ${MAX_LIVE_VENDOR_KEYS} ` +
  'live keys per vendor: one more answers 409 (revoke one first). Exchange it for a vendor token at ' +
  '`POST /authenticate`.';

export const LIST_DESCRIPTION =
  'Each key shows its non-secret `prefix`, scopes, status, who created it and when it was last used. ' +
  'Another shop’s or an unknown vendor answers 404.';

export const REVOKE_DESCRIPTION =
  'Soft revocation (`revokedAt`): every token minted from the key is refused from the next request on, and ' +
  'the key no longer signs in. Revoking a revoked key answers it unchanged.';

export const KEY_EXAMPLE_ID = '6741a0b1c2d3e4f5a6b7c8d9';
export const VENDOR_EXAMPLE_ID = '6740c1a2e4b0f15b3c9d0a21';
