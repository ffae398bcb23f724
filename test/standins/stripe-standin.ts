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

  private async handle(req: StandinRequest): Promise<{ status: number; body: unknown }> {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
      return {
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      };
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
