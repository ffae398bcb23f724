import { Types } from 'mongoose';
import type { PayoutAdjustment } from '../adjustments/payout-adjustment.schema';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { BatchTransferDto } from '../transfers/dto/transfer.dto';
import {
  adjustmentStatementRow,
  buildStatement,
  sortAdjustments,
  type StatementBatch,
} from './statement.mapper';
import { statementJson } from './statement-json';

const batch = (over: Partial<StatementBatch> = {}): StatementBatch =>
  ({
    _id: new Types.ObjectId(),
    vendorId: new Types.ObjectId(),
    vendorName: 'acme',
    periodEnd: '2026-03-31',
    cutoff: new Date('2026-03-31T23:59:59.999Z'),
    status: 'completed',
    total: 0,
    ...over,
  }) as StatementBatch;

let n = 0;
const row = (payout: number, over: Partial<MoneyRowSource> = {}): MoneyRowSource =>
  ({
    _id: new Types.ObjectId(),
    orderId: ++n,
    lineItemId: n * 10,
    orderName: `#${n}`,
    orderCreatedAt: new Date(Date.UTC(2026, 2, 1 + (n % 20))),
    name: `Thing "${n}"\n`,
    sku: null,
    quantity: 1,
    sales: payout,
    discount: 0,
    salesAfterDiscount: payout,
    tax: 0.07,
    shipping: 0,
    commission: 0.15,
    costOfItem: 0,
    taxOnCommissions: 0.01,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    payout,
    batchPaidAmount: payout,
    ...over,
  }) as MoneyRowSource;

const adjustment = (amount: number, day: number): PayoutAdjustment =>
  ({
    _id: new Types.ObjectId(),
    amount,
    customId: `ADJ-${day}`,
    comments: 'c',
    customItemDate: new Date(Date.UTC(2026, 2, day)),
  }) as PayoutAdjustment;

async function* cursor(rows: MoneyRowSource[]): AsyncGenerator<MoneyRowSource> {
  for (const r of rows) yield await Promise.resolve(r);
}

async function read(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** The streamed JSON statement is the document buildStatement makes, byte for byte, in every shape. */
describe('statementJson (the streamed JSON statement)', () => {
  const transfer = { id: 't1', state: 'paid' } as unknown as BatchTransferDto;
  it.each([
    ['no row at all', [], [], null],
    ['one row', [row(10)], [], transfer],
    ['adjustments only', [], [adjustment(-5.5, 3), adjustment(2, 1)], null],
    [
      'more rows than one chunk, refunds and adjustments',
      [
        ...Array.from({ length: 137 }, (_, i) => row(0.01 * (i + 1))),
        row(-3.33, { type: 'refund', refundId: 'r1', refundLineItemId: 'rl1', refundedQuantity: 1 }),
      ],
      [adjustment(-40, 5), adjustment(0.1, 2)],
      transfer,
    ],
  ])('%s: the same text as buildStatement, also inside the V2 envelope', async (_, rows, adjustments, t) => {
    const b = batch({ total: 1.23, closingBalance: 0, openingBalance: -2 } as Partial<StatementBatch>);
    const expected = JSON.stringify(buildStatement(b, rows, adjustments, t));
    const adj = sortAdjustments(adjustments).map(adjustmentStatementRow);
    expect(await read(statementJson(b, cursor(rows), adj, t, false))).toBe(expected);
    expect(await read(statementJson(b, cursor(rows), adj, t, true))).toBe(
      JSON.stringify({ success: true, data: JSON.parse(expected) }),
    );
  });

  it('a cursor failing part-way ends the body short: it does not parse', async () => {
    async function* failing(): AsyncGenerator<MoneyRowSource> {
      for (let i = 0; i < 120; i++) yield row(1);
      throw new Error('database gone');
    }
    const stream = statementJson(batch(), failing(), [], null, false);
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += String(chunk);
      })(),
    ).rejects.toThrow('database gone');
    expect(text.length).toBeGreaterThan(0);
    expect(() => JSON.parse(text)).toThrow();
  });
});
