import {
  OutboundHttpError,
  OutboundPolicy,
  OutboundResponse,
  outboundRequest,
} from '../../common/http/outbound/outbound-http';
import { RailOutage, RailRefusal } from './payout-rail';

export const PAYPAL_BASE_URLS = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;
export const PAYPAL_HOSTS = ['api-m.sandbox.paypal.com', 'api-m.paypal.com'] as const;

/** PayPal Payouts' documented shapes (only the fields this service reads or sends). */
export interface PaypalPayoutRequest {
  sender_batch_header: { sender_batch_id: string; email_subject?: string; recipient_type?: string };
  items: Array<{
    recipient_type: string;
    amount: { value: string; currency: string };
    receiver: string;
    note?: string;
    sender_item_id: string;
  }>;
}
export interface PaypalBatchHeader {
  payout_batch_id: string;
  batch_status: string;
  sender_batch_header?: { sender_batch_id?: string };
}
export interface PaypalPayoutItem {
  payout_item_id?: string;
  transaction_id?: string;
  transaction_status?: string;
  payout_batch_id?: string;
  payout_item?: { sender_item_id?: string };
  errors?: { name?: string; message?: string };
}
export interface PaypalPayoutBatch {
  batch_header: PaypalBatchHeader;
  items?: PaypalPayoutItem[];
}
export interface PaypalWebhookVerification {
  auth_algo: string;
  cert_url: string;
  transmission_id: string;
  transmission_sig: string;
  transmission_time: string;
  webhook_id: string;
  webhook_event: unknown;
}
interface PaypalErrorBody {
  name?: string;
  message?: string;
  details?: Array<{ issue?: string }>;
  links?: Array<{ href?: string }>;
}

export interface PaypalAccount {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

const TOKEN_SLACK_MS = 60_000;

/**
 * A small typed client of PayPal Payouts (OAuth2 client credentials, create payout, get payout
 * batch, verify webhook signature) over the guarded outbound helper. PayPal's server SDK for Node
 * does not cover Payouts, hence this. Access tokens are cached per client id until shortly before
 * they expire.
 */
export class PaypalClient {
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly policy: OutboundPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates the payout; a repeated sender_batch_id answers the batch PayPal already has. */
  async createPayout(account: PaypalAccount, body: PaypalPayoutRequest): Promise<PaypalBatchHeader> {
    const res = await this.authed(account, 'POST', '/v1/payments/payouts', JSON.stringify(body), {
      'paypal-request-id': body.sender_batch_header.sender_batch_id,
    });
    if (res.status === 200 || res.status === 201) return (parse(res) as PaypalPayoutBatch).batch_header;
    const err = parse(res) as PaypalErrorBody;
    const existing = duplicateOf(err);
    if (existing) return { payout_batch_id: existing, batch_status: 'PENDING' };
    throw failure(res, err, 'create the payout');
  }

  async getPayoutBatch(account: PaypalAccount, payoutBatchId: string): Promise<PaypalPayoutBatch> {
    const res = await this.authed(
      account,
      'GET',
      `/v1/payments/payouts/${encodeURIComponent(payoutBatchId)}`,
    );
    if (res.status === 200) return parse(res) as PaypalPayoutBatch;
    throw failure(res, parse(res) as PaypalErrorBody, 'read the payout batch');
  }

  /** PayPal's own verification of a webhook delivery (`verification_status` SUCCESS or FAILURE). */
  async verifyWebhookSignature(account: PaypalAccount, v: PaypalWebhookVerification): Promise<boolean> {
    const res = await this.authed(
      account,
      'POST',
      '/v1/notifications/verify-webhook-signature',
      JSON.stringify(v),
    );
    if (res.status !== 200) throw failure(res, parse(res) as PaypalErrorBody, 'verify the webhook');
    return (parse(res) as { verification_status?: string }).verification_status === 'SUCCESS';
  }

  private async token(account: PaypalAccount): Promise<string> {
    const key = `${account.baseUrl}|${account.clientId}`;
    const hit = this.tokens.get(key);
    if (hit && hit.until > this.now()) return hit.token;
    const basic = Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64');
    const res = await this.call({
      method: 'POST',
      url: `${account.baseUrl}/v1/oauth2/token`,
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) throw failure(res, parse(res) as PaypalErrorBody, 'obtain an access token');
    const body = parse(res) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new RailOutage('PayPal answered no access token', 'paypal');
    const ttl = Math.max(0, (body.expires_in ?? 0) * 1000 - TOKEN_SLACK_MS);
    this.tokens.set(key, { token: body.access_token, until: this.now() + ttl });
    return body.access_token;
  }

  private async authed(
    account: PaypalAccount,
    method: 'GET' | 'POST',
    path: string,
    body?: string,
    extra: Record<string, string> = {},
  ): Promise<OutboundResponse> {
    const token = await this.token(account);
    const res = await this.call({
      method,
      url: account.baseUrl + path,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...extra,
      },
      body,
    });
    // An expired or revoked token: drop it, so the next attempt asks for a new one.
    if (res.status === 401) this.tokens.delete(`${account.baseUrl}|${account.clientId}`);
    return res;
  }

  private async call(req: Parameters<typeof outboundRequest>[0]): Promise<OutboundResponse> {
    try {
      return await outboundRequest(req, this.policy);
    } catch (err) {
      if (err instanceof OutboundHttpError)
        throw new RailOutage(`PayPal unreachable: ${err.message}`, 'paypal');
      throw err;
    }
  }
}

function parse(res: OutboundResponse): unknown {
  try {
    return JSON.parse(res.body.toString('utf8') || '{}');
  } catch {
    throw new RailOutage(`PayPal answered HTTP ${res.status} with a body that is not JSON`, 'paypal');
  }
}

/** The payout batch a rejected duplicate sender_batch_id points at (its HATEOAS link), if that is the refusal. */
function duplicateOf(err: PaypalErrorBody): string | null {
  const duplicate =
    /DUPLICATE|ALREADY_USED/i.test(err.name ?? '') ||
    (err.details ?? []).some((d) => /DUPLICATE|ALREADY_USED/i.test(d.issue ?? ''));
  if (!duplicate) return null;
  for (const l of err.links ?? []) {
    const m = /\/v1\/payments\/payouts\/([^/?#]+)/.exec(l.href ?? '');
    if (m) return decodeURIComponent(m[1]);
  }
  return null;
}

function failure(res: OutboundResponse, err: PaypalErrorBody, what: string): RailOutage | RailRefusal {
  const detail = [err.name, err.message].filter(Boolean).join(': ').slice(0, 300) || 'no detail';
  if (res.status >= 500 || res.status === 429) {
    return new RailOutage(`PayPal could not ${what} (HTTP ${res.status}: ${detail})`, 'paypal');
  }
  return new RailRefusal(`PayPal refused to ${what} (HTTP ${res.status}: ${detail})`, 'paypal');
}
