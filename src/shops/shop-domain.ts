import { isIP } from 'node:net';

/** A host name: labels of letters, digits and inner hyphens, 3–253 characters, at least two labels. */
const HOST_NAME_RE =
  /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
/** A store on the platform: exactly one label under myshopify.com, as the platform issues them. */
const PLATFORM_DOMAIN_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.myshopify\.com$/;

export function normaliseDomain(domain: string): string {
  return String(domain ?? '')
    .trim()
    .toLowerCase();
}

/**
 * Why a shop domain may not be used, or null when it may (DESIGN §11: the adapter calls
 * `https://{domain}`, so a domain is an outbound target). Allowed: `<name>.myshopify.com`, or a
 * host that SHOPIFY_ALLOWED_HOSTS lists (exact, or `*.suffix` for names under the suffix). Never
 * an IP literal, whatever the list says. Checked when a shop is created and before every call.
 */
export function shopDomainProblem(domainInput: string, allowedHosts: readonly string[]): string | null {
  const domain = normaliseDomain(domainInput);
  if (isIP(domain.replace(/^\[|\]$/g, '')) !== 0 || /^[0-9.]+$/.test(domain))
    return `domain "${domainInput}" is an IP address; a shop domain is a host name (e.g. acme.myshopify.com)`;
  if (!HOST_NAME_RE.test(domain))
    return `domain "${domainInput}" is not a valid host name (e.g. acme.myshopify.com)`;
  if (PLATFORM_DOMAIN_RE.test(domain) || allowedHosts.some((pattern) => hostMatches(domain, pattern)))
    return null;
  return `domain "${domainInput}" is not a store-platform domain: use <name>.myshopify.com, or list the host in SHOPIFY_ALLOWED_HOSTS`;
}

function hostMatches(host: string, pattern: string): boolean {
  const p = pattern.toLowerCase();
  return p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p;
}
