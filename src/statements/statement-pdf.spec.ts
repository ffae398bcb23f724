import { Types } from 'mongoose';
import { cents, divHalfUp, fmt } from '../../test/support/cents';
import { linesWith, pdfInfo, pdfText, words } from '../../test/support/pdf-text';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { StatementRowDto } from './dto/statement.dto';
import type { StatementBatch } from './statement.mapper';
import { statementPageCount, statementPdf } from './statement-pdf';

const vendorId = new Types.ObjectId();
const batch = {
  _id: new Types.ObjectId('6742c1d2e3f4a5b6c7d8e9f0'),
  shopId: new Types.ObjectId(),
  vendorId,
  vendorName: 'acme apparel',
  periodEnd: '2026-11-30',
  cutoff: new Date('2026-11-30T23:59:59.999Z'),
  status: 'completed',
  total: 0,
  openingBalance: 0,
  closingBalance: 0,
  completedAt: new Date('2026-12-01T08:00:00.000Z'),
} as unknown as StatementBatch;

/** A sale row at 10 % commission (no tax, no deductions): the figures in cents from the oracle. */
function sale(
  i: number,
  price: string,
  qty: number,
  title = `Item ${i}`,
): { row: MoneyRowSource; payout: bigint } {
  const sales = cents(price) * BigInt(qty);
  const commission = divHalfUp(sales * 10n, 100n);
  const n = (c: bigint) => Number(fmt(c));
  const row = {
    _id: new Types.ObjectId(),
    type: 'sale',
    orderId: 5549201834154 + i,
    lineItemId: 13601741586602 + i,
    orderName: `#${1000 + i}`,
    orderNumber: 1000 + i,
    orderCreatedAt: new Date(Date.UTC(2026, 10, 1 + (i % 28), 9)),
    vendorId,
    vendorName: 'acme apparel',
    name: title,
    sku: `SKU-${i}`,
    quantity: qty,
    sales: n(sales),
    discount: 0,
    salesAfterDiscount: n(sales),
    tax: 0,
    shipping: 0,
    commission: n(commission),
    costOfItem: 0,
    taxOnCommissions: 0,
    tcs: 0,
    totalGlobalDeductions: 0,
    deduction: 0,
    payout: n(sales - commission),
    paid: n(sales - commission),
    balance: 0,
    payoutStatus: 'paid',
    batchId: String(batch._id),
  } as unknown as MoneyRowSource;
  return { row, payout: sales - commission };
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const i of items) yield i;
}

async function render(rows: MoneyRowSource[], adjustments: StatementRowDto[] = []): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const total = rows.reduce((s, r) => s + r.payout, 0) + adjustments.reduce((s, a) => s + a.amount, 0);
  const stream = statementPdf(
    { ...batch, total } as StatementBatch,
    from(rows),
    adjustments,
    { name: 'Harbour Market GmbH', addressLine: '1 Quay Street, 20457 Hamburg, DE' },
    rows.length,
  );
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('statement PDF (pdfkit, streamed rows)', () => {
  const lines = [sale(1, '50.00', 2, 'Canvas tote bag'), sale(2, '19.99', 1), sale(3, '0.35', 3)];
  const adj: StatementRowDto = {
    kind: 'adjustment',
    date: '2026-11-29T00:00:00.000Z',
    rowId: String(new Types.ObjectId()),
    orderId: null,
    orderName: null,
    lineItemId: null,
    refundId: null,
    refundLineItemId: null,
    adjustmentId: 'ADJ-7',
    description: 'Shipping label refund',
    sku: null,
    quantity: null,
    figures: null,
    amount: 5.25,
  };

  it('prints each row’s figures and the totals equal to the oracle, and the parties', async () => {
    const text = pdfText(
      await render(
        lines.map((l) => l.row),
        [adj],
      ),
    );
    expect(text).toContain('Payout statement');
    expect(text).toContain('acme apparel');
    expect(text).toContain('Harbour Market GmbH');
    expect(text).toContain('6742c1d2e3f4a5b6c7d8e9f0');
    // #1001: 100.00 sales, 10.00 commission, 0.00 tax on commission, 90.00 payout, 90.00 settled
    expect(words(linesWith(text, '#1001')[0]).slice(-5)).toEqual([
      '100.00',
      '10.00',
      '0.00',
      '90.00',
      '90.00',
    ]);
    // 0.35 × 3 = 1.05, commission 0.105 → 0.11 (half-up), payout 0.94
    expect(words(linesWith(text, '#1003')[0]).slice(-5)).toEqual(['1.05', '0.11', '0.00', '0.94', '0.94']);
    expect(words(linesWith(text, 'ADJ-7')[0]).pop()).toBe('5.25');
    const salesTotal = lines.reduce((s, l) => s + l.payout, 0n);
    expect(words(linesWith(text, 'Sales (3 rows)')[0]).pop()).toBe(fmt(salesTotal));
    expect(words(linesWith(text, 'Net')[0]).pop()).toBe(fmt(salesTotal + cents('5.25')));
    expect(words(linesWith(text, 'Paid by this batch')[0]).pop()).toBe(fmt(salesTotal + cents('5.25')));
    expect(text).toMatch(/page 1 of 1/);
  });

  it('breaks a long statement over pages, heads repeated, every row once, "page X of Y"', async () => {
    const many = Array.from({ length: 250 }, (_, i) => sale(i + 10, '12.34', 1).row);
    const text = pdfText(await render(many));
    const pages = text.match(/page \d+ of \d+/g) ?? [];
    expect(pages.length).toBeGreaterThan(3);
    expect(pages).toEqual(pages.map((_, i) => `page ${i + 1} of ${pages.length}`));
    expect(linesWith(text, 'Sales after').length).toBe(pages.length);
    for (let i = 10; i < 260; i++) expect(linesWith(text, `#${1000 + i} `).length).toBe(1);
    expect(words(linesWith(text, 'Sales (250 rows)')[0]).pop()).toBe(fmt(250n * (1234n - 123n)));
  });

  it('is deterministic (metadata dated at the batch’s completion) and cuts long descriptions to one line', async () => {
    const long = sale(5, '1.00', 1, 'A very long product title '.repeat(12)).row;
    const [a, b] = [await render([long]), await render([long])];
    expect(a.equals(b)).toBe(true);
    expect(pdfInfo(a).CreationDate).toBe('2026-12-01T08:00:00Z');
    expect(linesWith(pdfText(a), '#1005')[0]).toContain('…');
  });

  it('numbers its pages from the count before drawing: "page X of Y" matches the pages drawn at every break', async () => {
    // 29 rows leave room for the totals on page 1, 30 push them over; 38 rows fill page 1 and 45
    // each next page; 74 rows keep the totals on page 2, 75 push them to page 3
    for (const n of [1, 29, 30, 38, 39, 74, 75, 83, 84]) {
      const pdf = await render(Array.from({ length: n }, (_, i) => sale(i + 10, '1.00', 1).row));
      const pages = Number(pdfInfo(pdf).Pages);
      expect({ n, pages }).toEqual({ n, pages: statementPageCount(n) });
      const footers = pdfText(pdf).match(/page \d+ of \d+/g) ?? [];
      expect(footers).toEqual(Array.from({ length: pages }, (_, i) => `page ${i + 1} of ${pages}`));
    }
  });

  it('writes pages out as it goes: most of the bytes leave before the last row is read', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => sale(i + 10, '2.50', 1).row);
    let sent = 0;
    let sentBeforeLastRow = -1;
    async function* slow(): AsyncGenerator<MoneyRowSource> {
      for (const [i, r] of rows.entries()) {
        if (i === rows.length - 1) {
          await new Promise((res) => setImmediate(res));
          sentBeforeLastRow = sent;
        }
        yield r;
      }
    }
    const stream = statementPdf(batch, slow(), [], { name: null, addressLine: null }, rows.length);
    stream.on('data', (c: Buffer) => (sent += c.length));
    await new Promise((res, rej) => stream.on('end', res).on('error', rej));
    expect(sentBeforeLastRow).toBeGreaterThan(sent / 2);
  });

  it('gives the same bytes when two statements are drawn side by side (one parsed font shared)', async () => {
    const a = Array.from({ length: 450 }, (_, i) => sale(i + 10, `${(i % 97) + 1}.25`, 1, `Tote ${i}`).row);
    const b = Array.from({ length: 300 }, (_, i) => sale(i + 900, '3.10', 2, `Mug ${i % 13}`).row);
    const alone = [await render(a), await render(b)];
    const together = await Promise.all([render(a), render(b)]);
    expect(together[0].equals(alone[0])).toBe(true);
    expect(together[1].equals(alone[1])).toBe(true);
  });
});
