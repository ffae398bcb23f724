import type { OpenAPIObject, TagObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SECURITY_SCHEMES } from '../common/auth/auth.decorators';
import { operationsOf } from './operations';
import { VENDOR_TAG_PREFIX } from './tags';

/** The operator-side tag a vendor-only operation's tag maps to (none: `Vendor · <tag>` as is). */
const VENDOR_TAG_OF: Record<string, string> = {
  Vendors: 'Profile',
  Dashboards: 'Dashboard',
  Users: 'Authentication',
  'Merchant keys': 'Authentication',
  'Vendor API keys': 'Authentication',
  'Payout methods': 'Payouts',
  Statements: 'Payouts',
  Balances: 'Payouts',
};

const VENDOR_SCHEME = SECURITY_SCHEMES.vendor;

/** The security requirements name the vendor scheme and nothing else. */
function vendorOnly(security: Array<Record<string, string[]>>): boolean {
  return (
    security.length > 0 && security.every((req) => Object.keys(req).length === 1 && VENDOR_SCHEME in req)
  );
}

/**
 * The vendor surface (DESIGN §12): an operation a vendor token may call on an unprefixed path
 * (`/orders`, `/fulfillments` — a shop token may share some of them), or one only a vendor token
 * may call anywhere (`/v2/balance`). Sign-in and token renewal stay under Authentication.
 */
function onVendorSurface(path: string, security: Array<Record<string, string[]>> | undefined): boolean {
  if (!security || !security.some((req) => VENDOR_SCHEME in req)) return false;
  if (vendorOnly(security)) return true;
  return !/^\/v[12](\/|$)/.test(path) && !path.startsWith('/refresh-token');
}

/**
 * Moves the vendor surface's operations under the `Vendor · ` tags and adds `x-tagGroups` (Redoc,
 * Redocly and most portals group by it; Swagger UI shows the `Vendor · ` tags together after the
 * operator's, as TAGS orders them). `/v2/…` operations shared by shop and vendor tokens stay where
 * they are.
 */
export function groupVendorSurface(doc: OpenAPIObject): void {
  for (const { path, op } of operationsOf(doc)) {
    if (!onVendorSurface(path, op.security as Array<Record<string, string[]>> | undefined)) continue;
    op.tags = (op.tags ?? []).map((t) =>
      t.startsWith(VENDOR_TAG_PREFIX) ? t : `${VENDOR_TAG_PREFIX}${VENDOR_TAG_OF[t] ?? t}`,
    );
  }
}

/** `x-tagGroups` for a document whose `tags` are settled: the operator's, then the vendor surface. */
export function tagGroups(tags: TagObject[]): Array<{ name: string; tags: string[] }> {
  const vendor = tags.filter((t) => t.name.startsWith(VENDOR_TAG_PREFIX)).map((t) => t.name);
  const operator = tags.filter((t) => !t.name.startsWith(VENDOR_TAG_PREFIX)).map((t) => t.name);
  const groups = [{ name: 'Operator (shop and merchant tokens)', tags: operator }];
  if (vendor.length) groups.push({ name: 'Vendor surface (vendor tokens)', tags: vendor });
  return groups;
}
