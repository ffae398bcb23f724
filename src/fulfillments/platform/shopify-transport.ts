import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import {
  OutboundHttpError,
  type OutboundPolicy,
  outboundRequest,
  type OutboundResponse,
} from '../../common/http/outbound/outbound-http';
import type { PlatformConfig } from '../../config/configuration';
import { normaliseDomain, shopDomainProblem } from '../../shops/shop-domain';

export const SHOPIFY_API_VERSION = '2025-01';
/** One Admin API call; a fulfillment request's overall deadline can shorten it. */
export const SHOPIFY_CALL_TIMEOUT_MS = 10_000;
/** A GraphQL answer for one order's fulfillment orders is a few kB; anything near this is not one. */
export const SHOPIFY_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * The platform could not be asked, or did not answer usefully. `message` is ours and safe to show
 * (it names the `errorId` under which the remote detail was logged); the remote body, status text
 * and GraphQL messages never reach a caller.
 */
export class StorePlatformUnavailable extends Error {}

const SAFE_MESSAGES: Record<OutboundHttpError['reason'], string> = {
  url: 'The store platform address is not allowed',
  host: 'The store platform address is not allowed',
  address: 'The store platform address is not a public address',
  timeout: 'The store platform did not answer in time',
  too_large: 'The store platform answered with more data than allowed',
  network: 'The store platform could not be reached',
};

/**
 * The Admin API endpoint of a shop and the guard policy for calling it (DESIGN §11).
 * - The shop's domain must be a platform domain (`<name>.myshopify.com` or SHOPIFY_ALLOWED_HOSTS),
 *   checked on every call, not only at creation: rows written before the rule, or by hand, too.
 * - Default endpoint `https://{shop}`: https only, public addresses only, the host must be the
 *   shop's domain.
 * - SHOPIFY_API_BASE_URL (a proxy, or a local stand-in in development and tests): its own host is
 *   the only host allowed; http and loopback/private addresses only when `allowPrivateBaseUrl`
 *   (outside production, or OUTBOUND_ALLOW_PRIVATE).
 * Redirects are never followed (the guard returns a 3xx as an answer, refused below), the answer is
 * size-capped and the call time-capped.
 */
export class ShopifyTransport {
  private readonly logger = new Logger('ShopifyTransport');

  constructor(private readonly cfg: PlatformConfig) {}

  endpoint(domain: string): string {
    const base = (this.cfg.shopifyApiBaseUrl ?? 'https://{shop}')
      .replace('{shop}', normaliseDomain(domain))
      .replace(/\/+$/, '');
    return `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  }

  policy(domain: string, timeoutMs: number): OutboundPolicy {
    const configured = this.cfg.shopifyApiBaseUrl;
    const relaxed = configured !== undefined && this.cfg.allowPrivateBaseUrl;
    const expectedHost = configured?.includes('{shop}') === false ? hostOf(configured) : domain;
    return {
      allowHttp: relaxed,
      allowPrivate: relaxed,
      allowHost: (host) => host === expectedHost,
      timeoutMs,
      maxResponseBytes: SHOPIFY_MAX_RESPONSE_BYTES,
    };
  }

  /** One GraphQL call; `data` or a StorePlatformUnavailable with our message and an error id. */
  async graphql<T>(
    shop: { shopId: string; domain: string; accessToken: string },
    query: string,
    variables: Record<string, unknown>,
    deadline: number | undefined,
  ): Promise<T> {
    const domain = normaliseDomain(shop.domain);
    const problem = shopDomainProblem(domain, this.cfg.shopifyAllowedHosts);
    if (problem)
      throw this.unavailable(shop, 'The shop domain is not a store-platform domain; nothing was sent', {
        problem,
      });
    const remaining = deadline === undefined ? SHOPIFY_CALL_TIMEOUT_MS : deadline - Date.now();
    if (remaining <= 0)
      throw this.unavailable(shop, 'The request ran out of time before the store platform was asked', {});
    let res: OutboundResponse;
    try {
      res = await outboundRequest(
        {
          method: 'POST',
          url: this.endpoint(domain),
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-shopify-access-token': shop.accessToken,
          },
          body: JSON.stringify({ query, variables }),
        },
        this.policy(domain, Math.min(SHOPIFY_CALL_TIMEOUT_MS, remaining)),
      );
    } catch (err) {
      if (!(err instanceof OutboundHttpError)) throw err;
      throw this.unavailable(shop, SAFE_MESSAGES[err.reason], { reason: err.reason, detail: err.message });
    }
    const detail = { status: res.status, body: res.body.subarray(0, 512).toString('utf8') };
    if (res.status === 401 || res.status === 403) {
      throw this.unavailable(
        shop,
        'The store platform refused the access token; set a valid one with PUT /v1/shop/platform',
        detail,
      );
    }
    if (res.status >= 300 && res.status < 400) {
      throw this.unavailable(shop, 'The store platform answered with a redirect, which is not followed', {
        ...detail,
        location: res.headers.location,
      });
    }
    if (res.status < 200 || res.status >= 300)
      throw this.unavailable(shop, 'The store platform could not complete the request', detail);
    let body: { data?: T; errors?: unknown };
    try {
      body = JSON.parse(res.body.toString('utf8')) as typeof body;
    } catch {
      throw this.unavailable(shop, 'The store platform answered with a malformed body', detail);
    }
    if ((Array.isArray(body?.errors) && body.errors.length > 0) || !body?.data)
      throw this.unavailable(shop, 'The store platform reported an error', detail);
    return body.data;
  }

  /** Logs the remote detail under a new error id; the caller's message names only the id. */
  refusal(
    shop: { shopId: string; domain: string },
    message: string,
    detail: Record<string, unknown>,
  ): string {
    const errorId = randomUUID();
    this.logger.warn({ errorId, shopId: shop.shopId, domain: shop.domain, ...detail }, message);
    return `${message} (errorId ${errorId})`;
  }

  private unavailable(
    shop: { shopId: string; domain: string },
    message: string,
    detail: Record<string, unknown>,
  ): StorePlatformUnavailable {
    return new StorePlatformUnavailable(this.refusal(shop, message, detail));
  }
}

function hostOf(url: string): string {
  return new URL(url).hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}
