import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import { neutraliseFormula } from '../common/csv';
import { ConflictError, NotFoundError } from '../common/errors';
import { toDecimalString } from '../common/money';
import { ShopScope, toObjectId } from '../common/tenancy';
import { PayoutMethodsService } from './payout-methods.service';
import { TransfersRepository } from './transfers.repository';

export const BANK_FILE_FORMATS = ['bank', 'paypal'] as const;
export type BankFileFormat = (typeof BANK_FILE_FORMATS)[number];

/**
 * The file an operator pays a batch with by hand. Built from the batch's transfer (one per paid
 * batch: vendor, amount and currency exactly as the batch paid them), so a batch that paid nothing
 * (carried forward) or has no transfer has no file. `bank`: a header row and vendor, amount,
 * currency, reference (= the batch id, what the bank statement will show). `paypal`: PayPal's
 * mass-payment upload order, no header — receiver, amount, currency, reference id, note, wallet.
 */
@Injectable()
export class BankFileService {
  constructor(
    private readonly transfers: TransfersRepository,
    private readonly methods: PayoutMethodsService,
  ) {}

  async build(
    scope: ShopScope,
    batchId: string,
    format: BankFileFormat,
  ): Promise<{ filename: string; csv: string }> {
    const id = toObjectId(batchId);
    const t = id ? await this.transfers.findByBatch(scope, id) : null;
    if (!t) throw new NotFoundError('Transfer of this payout batch');
    const amount = toDecimalString(t.amount, t.currency);
    const reference = String(t.batchId);
    if (format === 'bank') {
      return {
        filename: `payout-${reference}.csv`,
        // A vendor name is shop-controlled text opened in spreadsheets: no text cell may start a
        // formula (the rule every CSV writer shares); the amount stays a plain number, and the
        // currency and reference are ours (an ISO code, a batch id).
        csv: stringify([[neutraliseFormula(t.vendorName), amount, t.currency, reference]], {
          header: true,
          columns: ['vendor', 'amount', 'currency', 'reference'],
        }),
      };
    }
    let receiver = t.method === 'paypal' ? t.destination : null;
    if (!receiver) {
      const target = await this.methods.targetOf(scope, String(t.vendorId));
      receiver = target.type === 'paypal' ? target.destination : null;
    }
    if (!receiver) {
      throw new ConflictError(
        'The vendor has no PayPal receiver: set a paypal payout method, or use format=bank',
      );
    }
    return {
      filename: `payout-${reference}-paypal.csv`,
      csv: stringify([
        [neutraliseFormula(receiver), amount, t.currency, reference, `Payout batch ${reference}`, 'PAYPAL'],
      ]),
    };
  }
}
