import { sumAmounts } from '../common/money';
import { LINE_FIGURE_FIELDS, LineFiguresDto } from '../line-items/dto/line-figures.dto';
import type { MoneyRowSource } from '../line-items/line-item-views';
import type { StatementRowDto, StatementTotalsDto } from './dto/statement.dto';

/**
 * A statement's totals, added up one row at a time: the streamed JSON statement keeps this and no
 * row, and the in-memory one (buildStatement) uses the same class, so both answer the same figures.
 * Each sum is `sumAmounts` of two amounts (exact integer cents on the 2-dp grid).
 */
export class StatementTally {
  private readonly figures = new Map<string, number>(LINE_FIGURE_FIELDS.map((f) => [f, 0]));
  private saleCount = 0;
  private refundCount = 0;
  private adjustmentCount = 0;
  private sales = 0;
  private refunds = 0;
  private adjustments = 0;
  private net = 0;

  /** A sale or refund row (`line` is its statement row: toStatementRow(source)). */
  addRow(source: MoneyRowSource, line: StatementRowDto): void {
    for (const f of LINE_FIGURE_FIELDS) this.figures.set(f, sumAmounts([this.figures.get(f), source[f]]));
    if (line.kind === 'refund') {
      this.refundCount++;
      this.refunds = sumAmounts([this.refunds, line.amount]);
    } else {
      this.saleCount++;
      this.sales = sumAmounts([this.sales, line.amount]);
    }
    this.net = sumAmounts([this.net, line.amount]);
  }

  addAdjustment(line: StatementRowDto): void {
    this.adjustmentCount++;
    this.adjustments = sumAmounts([this.adjustments, line.amount]);
    this.net = sumAmounts([this.net, line.amount]);
  }

  totals(): StatementTotalsDto {
    return {
      figures: Object.fromEntries(this.figures) as unknown as LineFiguresDto,
      saleCount: this.saleCount,
      refundCount: this.refundCount,
      adjustmentCount: this.adjustmentCount,
      sales: this.sales,
      refunds: this.refunds,
      adjustments: this.adjustments,
      net: this.net,
    };
  }
}
