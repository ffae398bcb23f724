import { randomBytes } from 'node:crypto';
import { HttpStandin, json, StandinRequest } from './http-standin';

export type PaypalItemStatus = 'SUCCESS' | 'FAILED' | 'RETURNED' | 'UNCLAIMED' | 'PENDING';

interface StandinPayout {
  payoutBatchId: string;
  senderBatchId: string;
  receiver: string;
  amount: { value: string; currency: string };
  recipientType: string;
}

/**
 * A stand-in for PayPal's documented Payouts endpoints: OAuth2 client credentials, create payout
 * (a repeated sender_batch_id is refused with a link to the first payout, as PayPal does), get
 * payout batch (the item's status is whatever the test set for its receiver: SUCCESS, FAILED,
 * RETURNED, UNCLAIMED, PENDING) and verify-webhook-signature (SUCCESS for `validSignature`).
 */
export class PaypalStandin extends HttpStandin {
  readonly clientId = 'standinClientId01';
  readonly clientSecret = 'standinClientSecret01';
  readonly validSignature = 'standin-valid-signature';
  readonly payouts = new Map<string, StandinPayout>();
  /** Status per receiver (default SUCCESS). */
  readonly statusOf = new Map<string, PaypalItemStatus>();
  readonly calls: Array<{ op: string; senderBatchId?: string; created?: boolean }> = [];
  private readonly tokens = new Set<string>();

  constructor() {
    super((req, res) => this.handle(req).then(({ status, body }) => json(res, status, body)));
  }

  /** Payouts created per sender_batch_id. */
  createdPerSenderBatch(): Map<string, number> {
    const out = new Map<string, number>();
    for (const c of this.calls)
      if (c.created) out.set(c.senderBatchId!, (out.get(c.senderBatchId!) ?? 0) + 1);
    return out;
  }

  itemEvent(payoutBatchId: string, status: PaypalItemStatus, eventType: string): Record<string, unknown> {
    const p = this.payouts.get(payoutBatchId)!;
    return {
      id: `WH-${randomBytes(6).toString('hex')}`,
      event_type: eventType,
      resource_type: 'payouts_item',
      resource: {
        payout_item_id: `ITEM-${payoutBatchId}`,
        transaction_status: status,
        payout_batch_id: payoutBatchId,
        payout_item: { receiver: p.receiver, amount: p.amount, sender_item_id: p.senderBatchId },
      },
    };
  }

  private async handle(req: StandinRequest): Promise<{ status: number; body: unknown }> {
    if (req.method === 'POST' && req.path === '/v1/oauth2/token') {
      this.calls.push({ op: 'token' });
      const basic = Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64');
      if (req.headers.authorization !== `Basic ${basic}` || req.body !== 'grant_type=client_credentials') {
        return {
          status: 401,
          body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
        };
      }
      const token = `A21AA${randomBytes(12).toString('hex')}`;
      this.tokens.add(token);
      return {
        status: 200,
        body: {
          scope: 'https://uri.paypal.com/payments/payouts',
          access_token: token,
          token_type: 'Bearer',
          expires_in: 32400,
        },
      };
    }
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.tokens.has(bearer)) {
      return {
        status: 401,
        body: {
          name: 'AUTHENTICATION_FAILURE',
          message: 'Authentication failed due to invalid authentication credentials',
        },
      };
    }
    if (req.method === 'POST' && req.path === '/v1/payments/payouts') {
      const body = JSON.parse(req.body) as {
        sender_batch_header: { sender_batch_id: string };
        items: Array<{
          receiver: string;
          amount: { value: string; currency: string };
          recipient_type: string;
        }>;
      };
      const senderBatchId = body.sender_batch_header.sender_batch_id;
      const existing = [...this.payouts.values()].find((p) => p.senderBatchId === senderBatchId);
      if (existing) {
        this.calls.push({ op: 'create', senderBatchId, created: false });
        return {
          status: 400,
          body: {
            name: 'USER_BUSINESS_ERROR',
            message: 'User business error.',
            details: [
              {
                field: 'SENDER_BATCH_ID',
                issue: 'Batch with given sender_batch_id already exists',
                location: 'body',
              },
            ],
            debug_id: 'standin',
            links: [
              {
                href: `${this.url}/v1/payments/payouts/${existing.payoutBatchId}`,
                rel: 'self',
                method: 'GET',
              },
            ],
          },
        };
      }
      const item = body.items[0];
      const payoutBatchId = randomBytes(6).toString('hex').toUpperCase();
      this.payouts.set(payoutBatchId, {
        payoutBatchId,
        senderBatchId,
        receiver: item.receiver,
        amount: item.amount,
        recipientType: item.recipient_type,
      });
      this.calls.push({ op: 'create', senderBatchId, created: true });
      return {
        status: 201,
        body: {
          batch_header: {
            payout_batch_id: payoutBatchId,
            batch_status: 'PENDING',
            sender_batch_header: body.sender_batch_header,
          },
        },
      };
    }
    const get = /^\/v1\/payments\/payouts\/([^/?]+)$/.exec(req.path);
    if (req.method === 'GET' && get) {
      this.calls.push({ op: 'get' });
      const p = this.payouts.get(get[1]);
      if (!p)
        return {
          status: 404,
          body: { name: 'INVALID_RESOURCE_ID', message: 'Requested resource ID was not found.' },
        };
      const status = this.statusOf.get(p.receiver) ?? 'SUCCESS';
      return {
        status: 200,
        body: {
          batch_header: {
            payout_batch_id: p.payoutBatchId,
            batch_status: status === 'PENDING' ? 'PROCESSING' : 'SUCCESS',
          },
          items: [
            {
              payout_item_id: `ITEM-${p.payoutBatchId}`,
              transaction_id: status === 'SUCCESS' ? `TX-${p.payoutBatchId}` : undefined,
              transaction_status: status,
              payout_batch_id: p.payoutBatchId,
              payout_item: { receiver: p.receiver, amount: p.amount, sender_item_id: p.senderBatchId },
              ...(status === 'FAILED'
                ? { errors: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' } }
                : {}),
            },
          ],
        },
      };
    }
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') {
      this.calls.push({ op: 'verify' });
      const v = JSON.parse(req.body) as { transmission_sig?: string; webhook_id?: string };
      return {
        status: 200,
        body: {
          verification_status:
            v.transmission_sig === this.validSignature && v.webhook_id ? 'SUCCESS' : 'FAILURE',
        },
      };
    }
    return { status: 404, body: { name: 'NOT_FOUND', message: 'Unknown endpoint' } };
  }
}
