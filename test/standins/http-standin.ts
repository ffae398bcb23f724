import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StandinHandler = (req: StandinRequest, res: ServerResponse) => Promise<void> | void;

/** A loopback HTTP server for a provider stand-in; `outage` makes every request fail at the socket. */
export class HttpStandin {
  private server: Server | null = null;
  url = '';
  /** While true, every connection is dropped without an answer (a provider outage). */
  outage = false;

  constructor(private readonly handler: StandinHandler) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (this.outage) {
          req.socket.destroy();
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        Promise.resolve(
          this.handler(
            { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body },
            res,
          ),
        ).catch((err: Error) => json(res, 500, { error: { message: err.message } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
