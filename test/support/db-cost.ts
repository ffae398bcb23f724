import { CommandObserver, OperationCost } from '../../src/database/command-observer';
import type { TestApp } from './app';
import type { ApiResponse, RequestOptions } from './http';

/** Commands that hand documents back (a count's aggregate answers a number, not documents). */
const READS = new Set(['find', 'getMore', 'findAndModify']);

export interface Measured {
  res: ApiResponse;
  cost: OperationCost;
  /** Commands besides the credential check. */
  commands: number;
  /** Documents returned besides the credential check. */
  documents: number;
  /** Documents returned by reads of one collection (a list's page, without its lookups). */
  documentsOf(collection: string): number;
  /** `find vendors (2)`-style lines, for a failing budget's message. */
  describe(): string;
}

/**
 * Sends one request with its own request id and returns what it cost the database (the app's
 * command observer attributes every driver command to the request it ran for). The test process
 * runs the app, so the observer is read in-process; e2e runs set DB_COMMAND_CAPTURE.
 */
export async function measured(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<Measured> {
  const res = await t.api.request(method, path, body, opts);
  // The server's own request id, which it answers in x-request-id and attributes commands to.
  const cost = t.app.get(CommandObserver).costOf(res.headers.get('x-request-id')!);
  return {
    res,
    cost,
    commands: cost.commands - cost.authCommands,
    documents: cost.documents - cost.authDocuments,
    documentsOf: (collection) =>
      cost.log
        .filter((e) => e.collection === collection && e.phase !== 'auth' && READS.has(e.command))
        .reduce((n, e) => n + e.documents, 0),
    describe: () =>
      cost.log
        .map((e) => `${e.command} ${e.collection} (${e.documents})${e.phase ? ` [${e.phase}]` : ''}`)
        .join('; '),
  };
}
