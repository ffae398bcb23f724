import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');
const ROUTE_CONTEXTS = ['RoutesResolver', 'RouterExplorer'];

interface Server {
  url: string;
  lines(): string[];
  stop(): Promise<void>;
}

/** The built server (dist/main.js) on a free port with exactly `env`, its stdout (the log) collected line by line. */
async function startServer(env: NodeJS.ProcessEnv, cwd?: string): Promise<Server> {
  const child: ChildProcess = spawn('node', [MAIN], {
    cwd,
    // A queue prefix of its own: this server runs queue processors, and must not take (and then
    // abandon when stopped) the jobs of the e2e files running next to it.
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'mp-test'}-logs`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const lines = () => out.split('\n').filter(Boolean);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = Date.now();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]);
      } else if (child.exitCode !== null || Date.now() - started > 45_000) {
        clearInterval(timer);
        child.kill('SIGKILL');
        reject(new Error(`server did not start:\n${out}\n${err}`));
      }
    }, 100);
  });
  return {
    url,
    lines,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Log lines are written asynchronously: wait until one matches. */
async function lineMatching(server: Server, test: (line: string) => boolean): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const found = server.lines().find(test);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no log line matched; log:\n${server.lines().join('\n')}`);
}

describe('logs (e2e, built dist/main.js)', () => {
  describe('JSON (the default when stdout is not a terminal)', () => {
    let server: Server;
    beforeAll(async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'debug' };
      delete env.LOG_FORMAT;
      server = await startServer(env);
    });
    afterAll(() => server.stop());

    it('writes one JSON object per line with the level by name', () => {
      const parsed = server.lines().map((l) => JSON.parse(l) as { level: unknown });
      expect(parsed.length).toBeGreaterThan(0);
      for (const entry of parsed) expect(['trace', 'debug', 'info', 'warn']).toContain(entry.level);
    });

    it("logs Nest's route mapping at debug, never at info", () => {
      const routes = server
        .lines()
        .map((l) => JSON.parse(l) as { level: string; context?: string })
        .filter((e) => e.context !== undefined && ROUTE_CONTEXTS.includes(e.context));
      expect(routes.length).toBeGreaterThan(50);
      expect(new Set(routes.map((e) => e.level))).toEqual(new Set(['debug']));
    });

    it("logs the cause of each 4xx once, at info, with our request id and the caller's apart", async () => {
      const missing = await fetch(`${server.url}/nope`, { headers: { 'x-request-id': 'log-e2e-404' } });
      expect(missing.status).toBe(404);
      const denied = await fetch(`${server.url}/v2/vendors`, { headers: { 'x-request-id': 'log-e2e-401' } });
      expect(denied.status).toBe(401);
      // the answer echoes the caller's id (finding 13c); the log line carries ours as reqId and the
      // caller's beside it as clientRequestId (issue 18)
      expect(missing.headers.get('x-request-id')).toBe('log-e2e-404');
      const causes = async (clientRequestId: string) => {
        await lineMatching(
          server,
          (l) => l.includes(`"clientRequestId":"${clientRequestId}"`) && l.includes('"error"'),
        );
        return server
          .lines()
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((e) => e.clientRequestId === clientRequestId && 'error' in e);
      };
      expect(await causes('log-e2e-404')).toEqual([
        expect.objectContaining({
          reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          level: 'info',
          clientRequestId: 'log-e2e-404',
          method: 'GET',
          url: '/nope',
          statusCode: 404,
          error: 'Route not found',
          msg: 'GET /nope answered 404: Route not found',
        }),
      ]);
      expect(await causes('log-e2e-401')).toEqual([
        expect.objectContaining({
          reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          level: 'info',
          clientRequestId: 'log-e2e-401',
          url: '/v2/vendors',
          statusCode: 401,
          error: 'Missing x-access-token header',
        }),
      ]);
    });
  });

  describe('pretty, chosen in a .env file of the working directory', () => {
    let server: Server;
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mp-logs-'));
      writeFileSync(join(dir, '.env'), 'LOG_FORMAT=pretty\nLOG_LEVEL=info\n');
      const env = { ...process.env };
      delete env.LOG_FORMAT;
      delete env.LOG_LEVEL;
      server = await startServer(env, dir);
    });
    afterAll(() => server.stop());

    it('prints readable lines: time, level name, message, then the fields', async () => {
      await fetch(`${server.url}/nope`, { headers: { 'x-request-id': 'log-e2e-pretty' } });
      const line = await lineMatching(
        server,
        (l) => l.includes('log-e2e-pretty') && l.includes('answered 404'),
      );
      expect(line).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/nope answered 404: Route not found \{.*"reqId":"[0-9a-f-]{36}".*"clientRequestId":"log-e2e-pretty"/,
      );
      expect(server.lines().some((l) => l.startsWith('{'))).toBe(false);
      expect(server.lines().some((l) => l.includes('Mapped {'))).toBe(false);
      expect(server.lines()).toContainEqual(
        expect.stringMatching(/INFO: \[NestApplication\] Nest application successfully started$/),
      );
    });
  });
});
