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

/** An operation only a vendor token may call: its security names the vendor scheme and nothing else. */
function vendorOnly(security: Array<Record<string, string[]>> | undefined): boolean {
  if (!security || security.length === 0) return false;
  return security.every((req) => Object.keys(req).length === 1 && VENDOR_SCHEME in req);
}

/**
 * Moves the vendor-only operations under the vendor surface's tags and adds `x-tagGroups` (Redoc,
 * Redocly and most portals group by it; Swagger UI shows the `Vendor · ` tags together after the
 * operator's, as TAGS orders them). Operations shared by shop and vendor tokens stay where they are.
 */
export function groupVendorSurface(doc: OpenAPIObject): void {
  for (const { op } of operationsOf(doc)) {
    if (!vendorOnly(op.security as Array<Record<string, string[]>> | undefined)) continue;
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
