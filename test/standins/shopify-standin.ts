/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL variables of the stand-in are untyped JSON */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Shopify Admin GraphQL API: the subset the shopify adapter uses
 * (order → fulfillmentOrders, fulfillmentCreate, fulfillmentTrackingInfoUpdate, fulfillmentCancel),
 * with the token check and a few ways to fail (`down`: every call answers 503).
 */
export class ShopifyStandIn {
  server!: Server;
  url = '';
  readonly token = 'shpat_good_token_0123456789';
  requests: Array<{
    path: string;
    token: string | undefined;
    query: string;
    variables: Record<string, any>;
  }> = [];
  /** orderId → fulfillment orders, each with line items (store line item id → remaining quantity). */
  orders = new Map<number, Array<{ id: string; status: string; lines: Map<number, number> }>>();
  failWith500 = new Set<number>();
  /** While true, every call answers 503 (the platform is down). */
  down = false;
  /** Fulfillments it created: gid → order, fulfillment-order line ids with quantities, state, tracking. */
  fulfillments = new Map<
    string,
    {
      orderId: number;
      lines: Array<{ fulfillmentOrderId: string; lineItemId: number; quantity: number }>;
      status: 'SUCCESS' | 'CANCELLED';
      tracking: { company?: string; number?: string; url?: string };
    }
  >();
  private seq = 1000;

  /** The GraphQL operations received whose query mentions `name` (e.g. `fulfillmentCreate`). */
  calls(name: string) {
    return this.requests.filter((r) => typeof r.query === 'string' && r.query.includes(`${name}(`));
  }

  addOrder(orderId: number, ...fulfillmentOrders: Array<Record<number, number>>) {
    this.orders.set(
      orderId,
      fulfillmentOrders.map((lines, i) => ({
        id: `gid://shopify/FulfillmentOrder/${orderId}${i}`,
        status: 'OPEN',
        lines: new Map(Object.entries(lines).map(([k, v]) => [Number(k), v])),
      })),
    );
  }

  async start() {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((r) => this.server.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const body = JSON.parse(raw || '{}');
    const token = req.headers['x-shopify-access-token'] as string | undefined;
    this.requests.push({ path: req.url ?? '', token, query: body.query, variables: body.variables });
    if (req.method !== 'POST' || req.url !== '/admin/api/2025-01/graphql.json')
      return send(404, { errors: 'Not Found' });
    if (this.down) return send(503, { errors: 'Service Unavailable' });
    if (token !== this.token) return send(401, { errors: '[API] Invalid API key or access token' });
    if (body.query.includes('fulfillmentTrackingInfoUpdate('))
      return send(200, this.trackingUpdate(body.variables));
    if (body.query.includes('fulfillmentCancel(')) return send(200, this.cancel(body.variables));
    if (body.query.includes('fulfillmentOrders')) {
      const orderId = Number(String(body.variables.id).split('/').pop());
      if (this.failWith500.has(orderId)) return send(500, { errors: 'Internal error' });
      const fos = this.orders.get(orderId);
      if (!fos) return send(200, { data: { order: null } });
      return send(200, {
        data: {
          order: {
            id: body.variables.id,
            fulfillmentOrders: {
              nodes: fos.map((fo) => ({
                id: fo.id,
                status: fo.status,
                lineItems: {
                  nodes: [...fo.lines].map(([lineItemId, remainingQuantity]) => ({
                    id: `gid://shopify/FulfillmentOrderLineItem/${lineItemId}9`,
                    remainingQuantity,
                    lineItem: { id: `gid://shopify/LineItem/${lineItemId}` },
                  })),
                },
              })),
            },
          },
        },
      });
    }
    if (body.query.includes('fulfillmentCreate')) {
      const input = body.variables.fulfillment;
      if (input.trackingInfo.number === 'REFUSE') {
        return send(200, {
          data: {
            fulfillmentCreate: {
              fulfillment: null,
              userErrors: [{ field: ['fulfillment'], message: 'Fulfillment order is on hold' }],
            },
          },
        });
      }
      const id = `gid://shopify/Fulfillment/${++this.seq}`;
      const record: Array<{ fulfillmentOrderId: string; lineItemId: number; quantity: number }> = [];
      let orderId = 0;
      for (const group of input.lineItemsByFulfillmentOrder) {
        for (const [oid, fos] of this.orders)
          if (fos.some((f) => f.id === group.fulfillmentOrderId)) orderId = oid;
        const fo = [...this.orders.values()].flat().find((f) => f.id === group.fulfillmentOrderId)!;
        for (const li of group.fulfillmentOrderLineItems) {
          const lineItemId = Number(String(li.id).split('/').pop()!.slice(0, -1));
          fo.lines.set(lineItemId, fo.lines.get(lineItemId)! - li.quantity);
          record.push({ fulfillmentOrderId: fo.id, lineItemId, quantity: li.quantity });
        }
      }
      this.fulfillments.set(id, {
        orderId,
        lines: record,
        status: 'SUCCESS',
        tracking: { ...input.trackingInfo },
      });
      return send(200, {
        data: {
          fulfillmentCreate: {
            fulfillment: { id, status: 'SUCCESS' },
            userErrors: [],
          },
        },
      });
    }
    return send(200, { errors: [{ message: 'Unknown query' }] });
  }

  private trackingUpdate(v: Record<string, any>) {
    const f = this.fulfillments.get(String(v.fulfillmentId));
    if (!f || f.status !== 'SUCCESS') {
      return {
        data: {
          fulfillmentTrackingInfoUpdate: {
            fulfillment: null,
            userErrors: [{ field: ['fulfillmentId'], message: 'Fulfillment does not exist.' }],
          },
        },
      };
    }
    f.tracking = { ...v.trackingInfoInput };
    return {
      data: {
        fulfillmentTrackingInfoUpdate: {
          fulfillment: { id: v.fulfillmentId, status: f.status },
          userErrors: [],
        },
      },
    };
  }

  /** Cancels the whole fulfillment: its quantities go back to their fulfillment orders. */
  private cancel(v: Record<string, any>) {
    const f = this.fulfillments.get(String(v.id));
    if (!f || f.status !== 'SUCCESS') {
      return {
        data: {
          fulfillmentCancel: {
            fulfillment: null,
            userErrors: [{ field: ['id'], message: 'Fulfillment cannot be cancelled.' }],
          },
        },
      };
    }
    f.status = 'CANCELLED';
    for (const l of f.lines) {
      const fo = [...this.orders.values()].flat().find((x) => x.id === l.fulfillmentOrderId)!;
      fo.lines.set(l.lineItemId, (fo.lines.get(l.lineItemId) ?? 0) + l.quantity);
    }
    return {
      data: { fulfillmentCancel: { fulfillment: { id: v.id, status: 'CANCELLED' }, userErrors: [] } },
    };
  }
}
