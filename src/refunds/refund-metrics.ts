import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

/**
 * Refund and netting metrics, registered into the process registry by MetricsService: refund rows
 * recorded per shop, the amount they claw back, and batches settled by outcome.
 */
@Injectable()
export class RefundMetrics {
  readonly refundRows = new Counter({
    name: 'marketplace_refund_rows_total',
    help: 'Refund rows recorded (one per refund line item), by shop',
    labelNames: ['shop'],
    registers: [],
  });
  readonly clawedBack = new Counter({
    name: 'marketplace_refund_clawed_back_total',
    help: 'Payout clawed back from vendors by refund rows (Σ −payout of new refund rows), by shop',
    labelNames: ['shop'],
    registers: [],
  });
  readonly batches = new Counter({
    name: 'marketplace_payout_batches_settled_total',
    help: 'Payout batches settled, by outcome (completed | carried_forward)',
    labelNames: ['outcome'],
    registers: [],
  });

  refundRowsRecorded(shopId: string, rows: number, clawedBack: number): void {
    if (rows <= 0) return;
    this.refundRows.inc({ shop: shopId }, rows);
    if (clawedBack > 0) this.clawedBack.inc({ shop: shopId }, clawedBack);
  }

  batchSettled(_shopId: string, outcome: string, _refundTotal: number): void {
    this.batches.inc({ outcome });
  }

  all(): Counter<string>[] {
    return [this.refundRows, this.clawedBack, this.batches];
  }
}
