import { StreamableFile } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import { Readable } from 'node:stream';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { BatchTransferDto } from '../transfers/dto/transfer.dto';
import type { StatementRowDto } from './dto/statement.dto';
import { type StatementBatch, statementHead, statementTail, toStatementRow } from './statement.mapper';
import { StatementTally } from './statement-tally';

/** Rows written per chunk of the body: one write per ~30 KB instead of one per row. */
const ROWS_PER_CHUNK = 50;

/**
 * The JSON statement as a stream (issue 28, finding 10): the same document `buildStatement` makes,
 * key for key, but written row by row as `rows` (a database cursor, read in batches) pass, with the
 * totals added up on the way and written after the rows. No row is kept, so a batch of any size
 * costs the server one cursor batch of memory. `envelope`: V2's `{success: true, data: …}` around it.
 * A failure mid-way ends the body short of its closing brackets: a client's parser refuses it
 * rather than read a partial statement as whole.
 */
export function statementJson(
  batch: StatementBatch,
  rows: AsyncIterable<MoneyRowSource>,
  adjustments: StatementRowDto[],
  transfer: BatchTransferDto | null,
  envelope: boolean,
): Readable {
  const body = chunks(batch, rows, adjustments, transfer, envelope);
  return Readable.from(inThisContext(body), { objectMode: false });
}

/**
 * The generator's steps (and the cursor's getMores) run in the caller's async context, the
 * request's, not the socket's that asks for more: logs and database command attribution see them.
 */
function inThisContext<T>(gen: AsyncGenerator<T>): AsyncIterable<T> {
  const next = AsyncResource.bind(() => gen.next());
  const stop = AsyncResource.bind(() => gen.return(undefined));
  return { [Symbol.asyncIterator]: () => ({ next, return: stop }) };
}

async function* chunks(
  batch: StatementBatch,
  rows: AsyncIterable<MoneyRowSource>,
  adjustments: StatementRowDto[],
  transfer: BatchTransferDto | null,
  envelope: boolean,
): AsyncGenerator<string> {
  const tally = new StatementTally();
  const it = rows[Symbol.asyncIterator]();
  // the first row is read before anything is written: `period.from` is its date
  let next = await it.next();
  const head = statementHead(batch, next.done ? null : next.value.orderCreatedAt.toISOString());
  let text = `${envelope ? '{"success":true,"data":' : ''}${openObject(head)},"rows":[`;
  let first = true;
  let inChunk = 0;
  const add = (line: StatementRowDto) => {
    text += `${first ? '' : ','}${JSON.stringify(line)}`;
    first = false;
    inChunk++;
  };
  for (; !next.done; next = await it.next()) {
    const line = toStatementRow(next.value);
    tally.addRow(next.value, line);
    add(line);
    if (inChunk >= ROWS_PER_CHUNK) {
      yield text;
      text = '';
      inChunk = 0;
    }
  }
  for (const line of adjustments) {
    tally.addAdjustment(line);
    add(line);
  }
  const tail = JSON.stringify(statementTail(batch, tally.totals(), transfer));
  yield `${text}],${tail.slice(1)}${envelope ? '}' : ''}`;
}

/** `{"a":1,"b":2}` without its closing brace, for more members to follow. */
function openObject(value: object): string {
  return JSON.stringify(value).slice(0, -1);
}

/** A streamed JSON body (Fastify writes it as it is read; nothing is buffered). */
export function jsonBody(stream: Readable): StreamableFile {
  return new StreamableFile(stream, { type: 'application/json; charset=utf-8' });
}
