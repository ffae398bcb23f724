import { REFUND_FIGURES } from '../../common/money/refund-figures';
import { ApiProperty } from '@nestjs/swagger';

/**
 * A row's money figures (DESIGN §6), declared once: every response that carries a line's figures —
 * line items, payout rows with figures, statement rows — reuses this class. On a refund row every
 * figure is negative (the refunded share of the sale line's figure).
 */
export class LineFiguresDto {
  @ApiProperty({ description: 'price × quantity', example: 40 })
  sales!: number;
  @ApiProperty({ example: 4 })
  discount!: number;
  @ApiProperty({ description: 'sales − discount', example: 36 })
  salesAfterDiscount!: number;
  @ApiProperty({ example: 3.6 })
  tax!: number;
  @ApiProperty({ description: "The line's share of the order's shipping", example: 4.99 })
  shipping!: number;
  @ApiProperty({ example: 3.6 })
  commission!: number;
  @ApiProperty({ example: 12.5 })
  costOfItem!: number;
  @ApiProperty({ example: 0 })
  taxOnCommissions!: number;
  @ApiProperty({ example: 0 })
  tcs!: number;
  @ApiProperty({ example: 0 })
  totalGlobalDeductions!: number;
  @ApiProperty({ example: 0 })
  deduction!: number;
  @ApiProperty({ description: 'Owed to the vendor for this row', example: 32.4 })
  payout!: number;
}

/**
 * The figure fields, in the order statements and exports list them: the money function's named
 * figures (a refund row carries each of them, negated pro rata), declared once in common/money.
 */
export const LINE_FIGURE_FIELDS = REFUND_FIGURES satisfies ReadonlyArray<keyof LineFiguresDto>;
export type LineFigureField = (typeof LINE_FIGURE_FIELDS)[number];
