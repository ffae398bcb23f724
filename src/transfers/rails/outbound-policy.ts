import type { OutboundPolicy } from '../../common/http/outbound/outbound-http';

const PROVIDER_TIMEOUT_MS = 30_000;

/**
 * The guard's policy for payout providers: https to the provider's own hosts only; when the base
 * URL is overridden (stripe-mock, the test stand-ins) and the process is not in production, http
 * and loopback are allowed as well — never in production.
 */
export function providerPolicy(
  allowedHosts: readonly string[],
  override: string | undefined,
  allowLocalTargets: boolean,
): OutboundPolicy {
  if (override && allowLocalTargets) {
    return { allowHttp: true, allowPrivate: true, timeoutMs: PROVIDER_TIMEOUT_MS };
  }
  const overrideHost = override ? new URL(override).hostname.toLowerCase() : null;
  return {
    allowHttp: false,
    allowPrivate: false,
    timeoutMs: PROVIDER_TIMEOUT_MS,
    allowHost: (host) => allowedHosts.includes(host) || host === overrideHost,
  };
}
