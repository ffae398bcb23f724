import { randomBytes } from 'node:crypto';
import { HttpStandin, json, StandinRequest } from './http-standin';

export interface StandinTransfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  idempotencyKey: string;
  amount_reversed: number;
  /** Stripe's `reversals.data` (newest first), one per (partial) reversal. */
  reversals: Array<{ id: string; object: 'transfer_reversal'; amount: number; transfer: string }>;
}

/**
 * A small STATEFUL stand-in for Stripe's `POST /v1/transfers` (stripe-mock is stateless): it keeps
 * the transfers it made, honours `Idempotency-Key` (the same key answers the first transfer and
 * creates nothing), counts every call, and can be told to refuse a destination or to be down.
 */
export class StripeStandin extends HttpStandin {
  readonly transfers = new Map<string, StandinTransfer>();
  private readonly byKey = new Map<string, { status: number; body: unknown }>();
  /** Every POST /v1/transfers, in order (the idempotency key and whether it created a transfer). */
  readonly calls: Array<{ key: string; created: boolean }> = [];
  /** Destinations answered 400 (an invalid or restricted account). */
  readonly refused = new Set<string>();
  /**
   * While true, every create answers 409 `idempotency_key_in_use` (another request with the same
   * key is in flight at Stripe) and creates nothing.
   */
  inFlight = false;
  /** Every lookup (GET /v1/transfers/:id or the list by transfer_group), in order. */
  readonly lookups: string[] = [];
  /** Runs before a call is answered (e.g. to check the transfer is stored first). */
  beforeAnswer: ((key: string, params: URLSearchParams) => Promise<void>) | null = null;

  constructor() {
    super((req, res) => this.handle(req).then(({ status, body }) => json(res, status, body)));
  }

  /** Transfers created per idempotency key (1 each, or the test found a double payment). */
  createdPerKey(): Map<string, number> {
    const out = new Map<string, number>();
    for (const c of this.calls) if (c.created) out.set(c.key, (out.get(c.key) ?? 0) + 1);
    return out;
  }

  /** Forgets a key's stored answer (Stripe keeps one for 24 h; a retry after that is sent afresh). */
  forgetKey(key: string): void {
    this.byKey.delete(key);
  }

  /** Reverses the transfer up to `amount` in total (minor units; default: all of it), as one more reversal. */
  reverse(id: string, amount?: number): StandinTransfer {
    const t = this.transfers.get(id)!;
    const total = Math.min(amount ?? t.amount, t.amount);
    if (total > t.amount_reversed) {
      const r = { id: `trr_${randomBytes(8).toString('hex')}`, object: 'transfer_reversal' as const };
      t.reversals.unshift({ ...r, amount: total - t.amount_reversed, transfer: t.id });
      t.amount_reversed = total;
    }
    return t;
  }

  /** The transfer as Stripe's `GET /v1/transfers/:id` shows it. */
  private view(t: StandinTransfer) {
    const { idempotencyKey, ...rest } = t;
    void idempotencyKey;
    return { ...rest, object: 'transfer', livemode: false, reversed: t.amount_reversed >= t.amount };
  }

  /** `GET /v1/transfers/:id` and `GET /v1/transfers?transfer_group=…`; null for any other path. */
  private lookup(path: string): { status: number; body: unknown } | null {
    const url = new URL(path, 'http://standin');
    const one = /^\/v1\/transfers\/([^/]+)$/.exec(url.pathname);
    if (one) {
      this.lookups.push(url.pathname);
      const t = this.transfers.get(decodeURIComponent(one[1]));
      return t
        ? { status: 200, body: this.view(t) }
        : {
            status: 404,
            body: {
              error: {
                type: 'invalid_request_error',
                code: 'resource_missing',
                message: `No such transfer: '${one[1]}'`,
              },
            },
          };
    }
    if (url.pathname !== '/v1/transfers') return null;
    this.lookups.push(`${url.pathname}${url.search}`);
    const group = url.searchParams.get('transfer_group');
    const data = [...this.transfers.values()]
      .filter((t) => !group || t.transfer_group === group)
      .map((t) => this.view(t));
    return { status: 200, body: { object: 'list', url: '/v1/transfers', has_more: false, data } };
  }

  private async handle(req: StandinRequest): Promise<{ status: number; body: unknown }> {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      };
    }
    if (req.method === 'GET') {
      const found = this.lookup(req.path);
      if (found) return found;
    }
    if (req.method !== 'POST' || req.path !== '/v1/transfers') {
      return {
        status: 404,
        body: { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } },
      };
    }
    const params = new URLSearchParams(req.body);
    const key = String(req.headers['idempotency-key'] ?? '');
    if (this.beforeAnswer) await this.beforeAnswer(key, params);
    if (this.inFlight) {
      this.calls.push({ key, created: false });
      return {
        status: 409,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'idempotency_key_in_use',
            message: 'There is currently another in-progress request using this Stripe-Idempotency-Key.',
          },
        },
      };
    }
    const earlier = key ? this.byKey.get(key) : undefined;
    if (earlier) {
      this.calls.push({ key, created: false });
      return earlier;
    }
    const destination = params.get('destination') ?? '';
    let answer: { status: number; body: unknown };
    if (this.refused.has(destination)) {
      answer = {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'account_invalid',
            message: `No such destination: '${destination}'`,
          },
        },
      };
      this.calls.push({ key, created: false });
    } else {
      const metadata: Record<string, string> = {};
      for (const [k, v] of params) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]] = v;
      }
      const t: StandinTransfer = {
        id: `tr_${randomBytes(8).toString('hex')}`,
        amount: Number(params.get('amount')),
        currency: params.get('currency') ?? '',
        destination,
        transfer_group: params.get('transfer_group'),
        metadata,
        idempotencyKey: key,
        amount_reversed: 0,
        reversals: [],
      };
      this.transfers.set(t.id, t);
      this.calls.push({ key, created: true });
      answer = {
        status: 200,
        body: {
          ...t,
          object: 'transfer',
          livemode: false,
          created: Math.floor(Date.now() / 1000),
          reversed: false,
        },
      };
    }
    // Stripe replays the first answer of a key, refusals included.
    if (key) this.byKey.set(key, answer);
    return answer;
  }
}
