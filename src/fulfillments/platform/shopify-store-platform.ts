import { Inject, Injectable } from '@nestjs/common';
import { platformConfig, type PlatformConfig } from '../../config/configuration';
import { ShopifyTransport } from './shopify-transport';
import {
  FulfillmentTracking,
  PlatformChangeOutcome,
  PlatformFulfillmentRef,
  PlatformFulfillmentRequest,
  PlatformLineOutcome,
  PlatformShop,
  StorePlatform,
} from './store-platform';

export { SHOPIFY_API_VERSION, StorePlatformUnavailable } from './shopify-transport';

export const FULFILLMENT_ORDERS_QUERY = `query FulfillmentOrdersForOrder($id: ID!) {
  order(id: $id) {
    id
    fulfillmentOrders(first: 50) {
      nodes {
        id
        status
        lineItems(first: 250) { nodes { id remainingQuantity lineItem { id } } }
      }
    }
  }
}`;

export const FULFILLMENT_CREATE_MUTATION = `mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

/** Admin API `fulfillmentTrackingInfoUpdate` (the successor of the deprecated `…V2`): same arguments. */
export const FULFILLMENT_TRACKING_UPDATE_MUTATION = `mutation FulfillmentTrackingInfoUpdate($fulfillmentId: ID!, $trackingInfoInput: FulfillmentTrackingInput!, $notifyCustomer: Boolean) {
  fulfillmentTrackingInfoUpdate(fulfillmentId: $fulfillmentId, trackingInfoInput: $trackingInfoInput, notifyCustomer: $notifyCustomer) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

/** Admin API `fulfillmentCancel`: cancels the whole fulfillment; its lines get new fulfillment orders. */
export const FULFILLMENT_CANCEL_MUTATION = `mutation FulfillmentCancel($id: ID!) {
  fulfillmentCancel(id: $id) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

type ChangePayload = {
  fulfillment: { id: string; status: string } | null;
  userErrors: Array<{ field?: string[] | null; message: string }>;
} | null;

interface FulfillmentOrdersData {
  order: {
    fulfillmentOrders: {
      nodes: Array<{
        id: string;
        status: string;
        lineItems: { nodes: Array<{ id: string; remainingQuantity: number; lineItem: { id: string } }> };
      }>;
    };
  } | null;
}

interface FulfillmentCreateData {
  fulfillmentCreate: {
    fulfillment: { id: string; status: string } | null;
    userErrors: Array<{ field?: string[] | null; message: string }>;
  } | null;
}

const OPEN_STATUSES = new Set(['OPEN', 'IN_PROGRESS']);
const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`;
/** `gid://shopify/Fulfillment/255858046` → `255858046` (what REST webhooks call the fulfillment id). */
export const legacyId = (g: string) => g.slice(g.lastIndexOf('/') + 1);

/**
 * Shopify Admin API (GraphQL) adapter: finds the order's open fulfillment orders, then calls
 * `fulfillmentCreate` once per fulfillment order with the requested lines and the tracking.
 * The endpoint is `SHOPIFY_API_BASE_URL` (`{shop}` is replaced by the shop domain; default
 * `https://{shop}`) + `/admin/api/<version>/graphql.json`, authenticated with the shop's access token.
 * Every call goes through the outbound guard (ShopifyTransport): platform domains only, no
 * redirects, size and time caps, and our own messages with an error id instead of the remote text.
 */
@Injectable()
export class ShopifyStorePlatform extends StorePlatform {
  readonly name = 'shopify';

  private readonly transport: ShopifyTransport;

  constructor(@Inject(platformConfig.KEY) cfg: PlatformConfig) {
    super();
    this.transport = new ShopifyTransport(cfg);
  }

  async createFulfillment(req: PlatformFulfillmentRequest): Promise<PlatformLineOutcome[]> {
    const fail = (lineItemId: number, message: string): PlatformLineOutcome => ({
      lineItemId,
      ok: false,
      message,
    });
    if (!req.shop.accessToken) {
      return req.lines.map((l) =>
        fail(
          l.lineItemId,
          'No store platform access token is set for this shop; set one with PUT /v1/shop/platform',
        ),
      );
    }
    const data = await this.graphql<FulfillmentOrdersData>(req, FULFILLMENT_ORDERS_QUERY, {
      id: gid('Order', req.orderId),
    });
    if (!data.order) {
      return req.lines.map((l) =>
        fail(l.lineItemId, `The store platform does not know order ${req.orderId}`),
      );
    }
    // Where each requested line can be fulfilled: an open fulfillment order with quantity left.
    const placement = new Map<number, { fulfillmentOrderId: string; id: string; quantity: number }>();
    for (const fo of data.order.fulfillmentOrders.nodes) {
      if (!OPEN_STATUSES.has(fo.status)) continue;
      for (const n of fo.lineItems.nodes) {
        const lineItemId = Number(legacyId(n.lineItem.id));
        if (n.remainingQuantity > 0 && !placement.has(lineItemId)) {
          placement.set(lineItemId, { fulfillmentOrderId: fo.id, id: n.id, quantity: n.remainingQuantity });
        }
      }
    }
    const outcomes = new Map<number, PlatformLineOutcome>();
    const byFulfillmentOrder = new Map<string, Array<{ lineItemId: number; id: string; quantity: number }>>();
    for (const line of req.lines) {
      const at = placement.get(line.lineItemId);
      if (!at) {
        outcomes.set(
          line.lineItemId,
          fail(line.lineItemId, 'The store platform has nothing left to fulfil for this line item'),
        );
        continue;
      }
      const group = byFulfillmentOrder.get(at.fulfillmentOrderId) ?? [];
      group.push({ lineItemId: line.lineItemId, id: at.id, quantity: at.quantity });
      byFulfillmentOrder.set(at.fulfillmentOrderId, group);
    }
    for (const [fulfillmentOrderId, lines] of byFulfillmentOrder) {
      const created = await this.graphql<FulfillmentCreateData>(req, FULFILLMENT_CREATE_MUTATION, {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId,
              fulfillmentOrderLineItems: lines.map((l) => ({ id: l.id, quantity: l.quantity })),
            },
          ],
          trackingInfo: { company: req.tracking.company, number: req.tracking.number, url: req.tracking.url },
          notifyCustomer: req.notifyCustomer ?? false,
        },
      });
      const result = created.fulfillmentCreate;
      // The platform's own words (userErrors) are logged under the error id, not shown.
      const refused =
        result?.userErrors?.length || !result?.fulfillment
          ? this.transport.refusal(req.shop, 'The store platform refused the fulfillment', {
              orderId: req.orderId,
              userErrors: (result?.userErrors ?? []).map((e) => String(e.message).slice(0, 200)),
            })
          : null;
      for (const l of lines) {
        outcomes.set(
          l.lineItemId,
          refused || !result?.fulfillment
            ? fail(l.lineItemId, refused!)
            : {
                lineItemId: l.lineItemId,
                ok: true,
                fulfillmentId: legacyId(result.fulfillment.id),
                status: result.fulfillment.status.toLowerCase(),
              },
        );
      }
    }
    return req.lines.map((l) => outcomes.get(l.lineItemId)!);
  }

  async updateTracking(
    ref: PlatformFulfillmentRef,
    tracking: FulfillmentTracking,
    notifyCustomer: boolean,
  ): Promise<PlatformChangeOutcome> {
    return this.change(ref, 'The store platform refused the tracking update', async () => {
      const data = await this.graphql<{ fulfillmentTrackingInfoUpdate: ChangePayload }>(
        ref,
        FULFILLMENT_TRACKING_UPDATE_MUTATION,
        {
          fulfillmentId: gid('Fulfillment', ref.fulfillmentId),
          trackingInfoInput: { company: tracking.company, number: tracking.number, url: tracking.url },
          notifyCustomer,
        },
      );
      return data.fulfillmentTrackingInfoUpdate;
    });
  }

  async cancelFulfillment(ref: PlatformFulfillmentRef): Promise<PlatformChangeOutcome> {
    return this.change(ref, 'The store platform refused to cancel the fulfillment', async () => {
      const data = await this.graphql<{ fulfillmentCancel: ChangePayload }>(
        ref,
        FULFILLMENT_CANCEL_MUTATION,
        {
          id: gid('Fulfillment', ref.fulfillmentId),
        },
      );
      return data.fulfillmentCancel;
    });
  }

  endpoint(domain: string): string {
    return this.transport.endpoint(domain);
  }

  /** A change of one fulfillment: refused without a token or with userErrors (logged under an error id). */
  private async change(
    ref: PlatformFulfillmentRef,
    refusedMessage: string,
    call: () => Promise<ChangePayload>,
  ): Promise<PlatformChangeOutcome> {
    if (!ref.shop.accessToken) {
      return {
        ok: false,
        message: 'No store platform access token is set for this shop; set one with PUT /v1/shop/platform',
      };
    }
    const result = await call();
    if (result?.userErrors?.length || !result?.fulfillment) {
      return {
        ok: false,
        message: this.transport.refusal(ref.shop, refusedMessage, {
          orderId: ref.orderId,
          fulfillmentId: ref.fulfillmentId,
          userErrors: (result?.userErrors ?? []).map((e) => String(e.message).slice(0, 200)),
        }),
      };
    }
    return { ok: true };
  }

  private graphql<T>(
    req: { shop: PlatformShop; deadline?: number },
    query: string,
    variables: Record<string, unknown>,
  ): Promise<T> {
    return this.transport.graphql<T>(
      { shopId: req.shop.shopId, domain: req.shop.domain, accessToken: req.shop.accessToken! },
      query,
      variables,
      req.deadline,
    );
  }
}
