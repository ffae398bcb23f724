/* eslint-disable @typescript-eslint/no-explicit-any */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { TestApp } from './app';
import type { TestShop } from './factory';
import { eventually } from './webhooks';

/** One request a receiver got. */
export interface Received {
  at: number;
  headers: Record<string, string>;
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; hangMs?: number };

/**
 * A real HTTP receiver on loopback for outbound-event tests: records every request and answers
 * what `answer` says (200 by default), so a test can script 500, 410, 429 + Retry-After or a hang.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (req: Received, n: number) => Answer = () => ({ status: 200, body: 'ok' });
  private server!: Server;
  url = '';

  static async start(path = '/hook'): Promise<Receiver> {
    const r = new Receiver();
    r.server = createServer((req, res) => r.handle(req, res));
    r.server.keepAliveTimeout = 1000;
    await new Promise<void>((ok) => r.server.listen(0, '127.0.0.1', ok));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}${path}`;
    return r;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The requests with this `webhook-id`. */
  withId(id: string): Received[] {
    return this.received.filter((r) => r.headers['webhook-id'] === id);
  }

  /** Parsed bodies of every request. */
  bodies(): Array<Record<string, any>> {
    return this.received.map((r) => JSON.parse(r.body));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = {
        at: Date.now(),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.received.push(got);
      const a = this.answer(got, this.received.length);
      const reply = () => {
        res.writeHead(a.status, a.headers ?? {});
        res.end(a.body ?? '');
      };
      if (a.hangMs) setTimeout(reply, a.hangMs);
      else reply();
    });
  }
}

/**
 * An endpoint of the shop on a fresh receiver (pushed to `receivers` for closing), with a verifier
 * of its deliveries: `of(type)` every verified event of a type (a bad signature throws, failing the
 * test), `arrived(type, n)` waits until exactly n distinct events of the type arrived (by id).
 */
export async function listenForEvents(t: TestApp, shop: TestShop, receivers: Receiver[]) {
  const r = await Receiver.start();
  receivers.push(r);
  const res = await t.api.post('/v1/webhook-endpoints', { url: r.url }, { token: shop.token });
  expect(res.status).toBe(200);
  const hook = new Webhook(res.body.secret as string);
  const of = (type: string) =>
    r.received
      .map((x) => hook.verify(x.body, x.headers) as Record<string, any>)
      .filter((b) => b.type === type);
  const arrived = (type: string, n = 1) =>
    eventually(async () => {
      const byId = new Map(of(type).map((b) => [b.id, b]));
      expect(byId.size).toBe(n);
      return [...byId.values()];
    }, 10000);
  return { r, of, arrived };
}
