import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { metricsConfig, MetricsConfig } from '../config/configuration';
import { ProcessRoleInfo } from '../config/process-role';
import { ReadinessService } from '../health/readiness.service';
import { MetricsService } from './metrics.service';

/** METRICS_PORT unset: the API and the worker each have their own default (both may run on one host). */
export const DEFAULT_METRICS_PORT = { api: 9464, worker: 9465 } as const;

/**
 * The ops listener: a bare HTTP server on its own port (METRICS_PORT), separate from the API and
 * unauthenticated — bind it to loopback or a private network (METRICS_HOST). It serves
 * `GET /metrics` (Prometheus text), `GET /health` (the process answers) and `GET /health/ready`
 * (MongoDB and Redis answer). The worker has no other listener: this is its liveness check.
 */
@Injectable()
export class OpsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Ops');
  private server: Server | null = null;

  constructor(
    private readonly metrics: MetricsService,
    private readonly readiness: ReadinessService,
    private readonly role: ProcessRoleInfo,
    @Inject(metricsConfig.KEY) private readonly cfg: MetricsConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.role.role === 'cli') return;
    const port = this.cfg.port ?? DEFAULT_METRICS_PORT[this.role.role];
    const server = createServer((req, res) => {
      void this.handle(req.method ?? 'GET', (req.url ?? '/').split('?')[0]).then(
        ({ status, type, body }) => {
          res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        () => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('error\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new Error(
            `The ops listener (metrics, health) cannot listen on ${this.cfg.host}:${port}: ${err.code ?? err.message}; ` +
              'set METRICS_PORT to a free port (0 picks one)',
          ),
        ),
      );
      server.listen(port, this.cfg.host, () => resolve());
    });
    server.unref();
    this.server = server;
    this.logger.log({ url: this.url() }, `Metrics on ${this.url()}/metrics`);
  }

  /** `http://host:port` of the listener (null before it listens, or in the CLI). */
  url(): string | null {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) return null;
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(
    method: string,
    path: string,
  ): Promise<{ status: number; type: string; body: string }> {
    if (method !== 'GET' && method !== 'HEAD') return { status: 405, type: 'text/plain', body: 'GET only\n' };
    if (path === '/metrics')
      return { status: 200, type: this.metrics.contentType, body: await this.metrics.text() };
    if (path === '/health') return json(200, { status: 'ok', role: this.role.role });
    if (path === '/health/ready') {
      const r = await this.readiness.check();
      return json(r.status === 'ok' ? 200 : 503, r);
    }
    return { status: 404, type: 'text/plain', body: 'not found\n' };
  }
}

function json(status: number, body: unknown) {
  return { status, type: 'application/json', body: JSON.stringify(body) };
}
