import { createHmac, randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths as V1Paths } from './generated/v1';
import type { paths as V2Paths } from './generated/v2';
import { ResponseChecker } from './response-check';

/**
 * The flow reads JSON answers (it sends no `Accept: text/csv`): operations that also answer CSV
 * document both media types, and the client's types take the JSON one.
 */
type Json = 'application/json';

/**
 * Typed clients generated from openapi/v1.json and openapi/v2.json (openapi-typescript types,
 * openapi-fetch calls), each answer checked against its document at run time.
 */
export interface Clients {
  checkers: { v1: ResponseChecker; v2: ResponseChecker };
  v1(token?: string): Client<V1Paths, Json>;
  v2(token?: string): Client<V2Paths, Json>;
}

export function clients(baseUrl: string): Clients {
  const checkers = { v1: new ResponseChecker('v1'), v2: new ResponseChecker('v2') };
  const headers = (token?: string) => (token ? { 'x-access-token': token } : {});
  return {
    checkers,
    v1(token) {
      const client = createClient<V1Paths, Json>({ baseUrl, headers: headers(token) });
      client.use(checkers.v1.middleware());
      return client;
    },
    v2(token) {
      const client = createClient<V2Paths, Json>({ baseUrl, headers: headers(token) });
      client.use(checkers.v2.middleware());
      return client;
    },
  };
}

/** The data of a documented success, or an error naming the status and body the API answered. */
export function ok<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (result.data === undefined) {
    throw new Error(`${result.response.status} ${result.response.url}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`flow: ${message}`);
}

/** Retries `step` until it answers, for work the API queues behind its answer (webhooks, batches). */
export async function eventually<T>(
  step: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await step();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`flow: ${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Shop {
  shopDomain: string;
  apiKey: string;
  webhookSecret: string;
}

/**
 * Sends a store-platform webhook through the generated client as the platform does: the exact
 * bytes that were signed (bodySerializer), with the X-Shopify-* headers.
 */
export async function sendWebhook(c: Clients, shop: Shop, topic: string, payload: Record<string, unknown>) {
  const raw = JSON.stringify(payload);
  const signature = createHmac('sha256', shop.webhookSecret).update(raw).digest('base64');
  return ok(
    await c.v1().POST('/webhooks/shopify', {
      params: {
        header: {
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': shop.shopDomain,
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-hmac-sha256': signature,
        },
      },
      body: payload,
      bodySerializer: () => raw,
    }),
  );
}
