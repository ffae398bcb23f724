import type { OutboundPolicy } from '../../common/http/outbound/outbound-http';
import { PROVIDER_TIMEOUT_MAX_MS } from '../../config/configuration';

/**
 * The guard's policy for payout providers: https to the provider's own hosts only; when the base
 * URL is overridden (stripe-mock, the test stand-ins) and the process is not in production, http
 * and loopback are allowed as well — never in production.
 */
export function providerPolicy(
  allowedHosts: readonly string[],
  override: string | undefined,
  allowLocalTargets: boolean,
  /** One try's timeout (providerTimeoutFor the transfer lease). */
  timeoutMs: number = PROVIDER_TIMEOUT_MAX_MS,
): OutboundPolicy {
  if (override && allowLocalTargets) {
    return { allowHttp: true, allowPrivate: true, timeoutMs };
  }
  const overrideHost = override ? new URL(override).hostname.toLowerCase() : null;
  return {
    allowHttp: false,
    allowPrivate: false,
    timeoutMs,
    allowHost: (host) => allowedHosts.includes(host) || host === overrideHost,
  };
}
