import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Connection } from 'mongoose';
import { BSON } from 'mongodb';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent } from 'mongodb';
import { OperationContexts } from '../common/context/operation-context';
import { databaseConfig, DatabaseConfig } from '../config/configuration';
import { CommandShape, commandShape, documentsReturned } from './query-shape';

/** What one operation (request or job) cost the database. */
export interface OperationCost {
  commands: number;
  documents: number;
  /** Of those, the commands and documents of the credential check. */
  authCommands: number;
  authDocuments: number;
  /** Of those, per named phase (`auth`, `inbox` — the webhook inbox's bookkeeping, …). */
  phases: Record<string, { commands: number; documents: number }>;
  /** Every command in the order it was sent. */
  log: CommandEntry[];
}

export interface CommandEntry {
  command: string;
  collection: string;
  documents: number;
  phase?: string;
}

/** One captured command, as written to the capture file (one JSON object per line). */
export interface CapturedCommand extends CommandShape {
  op: string | null;
  phase?: string;
  docs: number;
  ms: number;
  ok: boolean;
  /** With DB_COMMAND_CAPTURE_VALUES: the database, the command as extended JSON, its start (ms, monotonic). */
  db?: string;
  raw?: string;
  t?: number;
}

/**
 * The command as the driver sends it, in extended JSON: through BSON first, so values that
 * serialise themselves for the wire (a mongoose sub-document array, whose parent link is circular)
 * are written as sent. A diagnostic never fails the command it watches.
 */
export function wireJson(command: Record<string, unknown>): string {
  try {
    return BSON.EJSON.stringify(BSON.deserialize(BSON.serialize(command)), { relaxed: false });
  } catch (e) {
    return JSON.stringify({ unserialisable: String(e) });
  }
}

/** One HTTP request, so captured commands can be grouped by route. */
export interface CapturedRequest {
  request: string;
  method: string;
  route: string;
  status: number;
}

const IGNORED = new Set([
  'hello',
  'isMaster',
  'ismaster',
  'ping',
  'endSessions',
  'killCursors',
  'buildInfo',
  'saslStart',
  'saslContinue',
]);
const MAX_TRACKED_OPERATIONS = 20_000;
const FLUSH_LINES = 500;

/**
 * Watches the driver's command monitoring (only when `DB_COMMAND_CAPTURE` is on: tests and the
 * benchmark) and attributes each command to the operation it ran for. Keeps per-operation costs in
 * memory (the round-trip budget tests read them) and, with `DB_COMMAND_CAPTURE_DIR`, appends every
 * command's index-relevant shape (never a value) to a file for the index-coverage check.
 */
@Injectable()
export class CommandObserver implements OnApplicationShutdown {
  readonly enabled: boolean;
  private readonly file: string | null;
  private readonly pending = new Map<
    number,
    {
      shape: CommandShape | null;
      name: string;
      op: string | null;
      phase?: string;
      coll: string;
      raw?: { db: string; command: string; t: number };
    }
  >();
  private readonly captureValues: boolean;
  private readonly costs = new Map<string, OperationCost>();
  private buffer: string[] = [];
  private readonly flushAtExit = () => this.flush();

  constructor(@Inject(databaseConfig.KEY) config: DatabaseConfig) {
    this.enabled = config.captureCommands;
    this.captureValues = config.captureValues;
    this.file = config.captureDir ? join(config.captureDir, `commands-${process.pid}.jsonl`) : null;
    if (this.file) {
      mkdirSync(config.captureDir!, { recursive: true });
      process.once('exit', this.flushAtExit);
    }
  }

  /** Called once with the connected connection (DatabaseModule). */
  attach(connection: Connection): void {
    if (!this.enabled) return;
    const client = connection.getClient();
    client.on('commandStarted', (e: CommandStartedEvent) => this.started(e));
    client.on('commandSucceeded', (e: CommandSucceededEvent) => this.finished(e, true));
    client.on('commandFailed', (e: CommandFailedEvent) => this.finished(e, false));
  }

  /** The database cost of one operation so far (a copy), or zeros when it sent nothing. */
  costOf(operationId: string): OperationCost {
    const c = this.costs.get(operationId);
    return c
      ? { ...c, log: [...c.log], phases: structuredClone(c.phases) }
      : { commands: 0, documents: 0, authCommands: 0, authDocuments: 0, phases: {}, log: [] };
  }

  /** The costs of every operation whose id starts with `prefix` (e.g. all jobs of one queue). */
  operationsWithPrefix(prefix: string): Array<OperationCost & { id: string }> {
    return [...this.costs.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([id, c]) => ({ ...c, id, log: [...c.log], phases: structuredClone(c.phases) }));
  }

  recordRequest(request: CapturedRequest): void {
    if (this.file) this.write({ kind: 'request', ...request });
  }

  /** Writes the declared indexes next to the captured commands (the coverage check compares them). */
  recordIndexes(indexes: unknown[]): void {
    if (!this.file) return;
    writeFileSync(this.file.replace(/commands-(\d+)\.jsonl$/, 'indexes-$1.json'), JSON.stringify(indexes));
  }

  onApplicationShutdown(): void {
    this.flush();
    process.removeListener('exit', this.flushAtExit);
  }

  private started(e: CommandStartedEvent): void {
    if (IGNORED.has(e.commandName)) return;
    const ctx = OperationContexts.current();
    const command = e.command as Record<string, unknown>;
    this.pending.set(e.requestId, {
      shape: commandShape(e.commandName, command),
      name: e.commandName,
      coll: String(command[e.commandName] ?? command.collection ?? ''),
      op: ctx?.id ?? null,
      phase: ctx?.phase,
      raw: this.captureValues
        ? {
            db: e.databaseName,
            command: wireJson(command),
            t: performance.now(),
          }
        : undefined,
    });
  }

  private finished(e: CommandSucceededEvent | CommandFailedEvent, ok: boolean): void {
    const p = this.pending.get(e.requestId);
    if (!p) return;
    this.pending.delete(e.requestId);
    const docs = ok
      ? documentsReturned(p.name, (e as CommandSucceededEvent).reply as Record<string, unknown>)
      : 0;
    if (p.op) this.charge(p.op, { command: p.name, collection: p.coll, documents: docs, phase: p.phase });
    if (this.file) {
      const captured: CapturedCommand = {
        ...(p.shape ?? { command: p.name, collection: p.coll, statements: [] }),
        op: p.op,
        docs,
        ms: e.duration,
        ok,
      };
      if (p.phase) captured.phase = p.phase;
      if (p.raw) Object.assign(captured, { db: p.raw.db, raw: p.raw.command, t: p.raw.t });
      this.write({ kind: 'command', ...captured });
    }
  }

  private charge(op: string, entry: CommandEntry): void {
    let c = this.costs.get(op);
    if (!c) {
      if (this.costs.size >= MAX_TRACKED_OPERATIONS) this.costs.delete(this.costs.keys().next().value!);
      c = { commands: 0, documents: 0, authCommands: 0, authDocuments: 0, phases: {}, log: [] };
      this.costs.set(op, c);
    }
    c.commands++;
    c.documents += entry.documents;
    if (entry.phase === 'auth') {
      c.authCommands++;
      c.authDocuments += entry.documents;
    }
    if (entry.phase) {
      const p = (c.phases[entry.phase] ??= { commands: 0, documents: 0 });
      p.commands++;
      p.documents += entry.documents;
    }
    c.log.push(entry);
  }

  private write(line: object): void {
    this.buffer.push(JSON.stringify(line));
    if (this.buffer.length >= FLUSH_LINES) this.flush();
  }

  private flush(): void {
    if (!this.file || this.buffer.length === 0) return;
    appendFileSync(this.file, this.buffer.join('\n') + '\n');
    this.buffer = [];
  }
}
