import { Types } from 'mongoose';
import { asReal, SHOP } from '../../test/fakes/fake';
import { FakeMethods, FakeTransfersRepository } from '../../test/fakes/transfers.fake';
import { neutraliseFormula } from '../common/csv';
import { NotFoundError } from '../common/errors';
import { BankFileService } from './bank-file.service';
import type { PayoutMethodsService } from './payout-methods.service';
import type { TransfersRepository } from './transfers.repository';

describe('BankFileService', () => {
  const repo = new FakeTransfersRepository();
  const methods = new FakeMethods();
  const files = new BankFileService(asReal<TransfersRepository>(repo), asReal<PayoutMethodsService>(methods));

  async function transfer(vendorName: string, amount: number, currency = 'USD') {
    const batchId = new Types.ObjectId();
    await repo.insertOnce(
      SHOP,
      {
        batchId,
        vendorId: new Types.ObjectId(),
        vendorName,
        method: 'manual',
        destination: null,
        recipientType: null,
        amount,
        currency,
      },
      { from: null, to: 'pending', at: new Date(), by: 'engine', note: null },
    );
    return String(batchId);
  }

  it('bank layout: a header, the amount to the cent, the batch id as reference', async () => {
    const batch = await transfer('acme, "the" apparel', 1234.5);
    expect((await files.build(SHOP, batch, 'bank')).csv).toBe(
      `vendor,amount,currency,reference\n"acme, ""the"" apparel",1234.50,USD,${batch}\n`,
    );
  });

  it('no cell starts a spreadsheet formula', async () => {
    const batch = await transfer('=HYPERLINK("http://x")', 5);
    expect((await files.build(SHOP, batch, 'bank')).csv.split('\n')[1].startsWith('"\'=')).toBe(true);
  });

  it('neutralises exactly as every other CSV writer does (the shared common/csv helper)', async () => {
    for (const name of ['=1+1', '+1', '-1', '@A1', '\uFF1D1', '\uFF0B1', '\uFF0D1', '\uFF20A1', 'plain']) {
      const batch = await transfer(name, 5);
      const [cell] = (await files.build(SHOP, batch, 'bank')).csv.split('\n')[1].split(',');
      expect(cell).toBe(neutraliseFormula(name));
    }
    // the amount is a number cell, never prefixed
    const batch = await transfer('acme', 5);
    expect((await files.build(SHOP, batch, 'bank')).csv.split('\n')[1].split(',')[1]).toBe('5.00');
  });

  it('paypal layout needs a PayPal receiver; a batch without a transfer is 404', async () => {
    const batch = await transfer('acme', 7, 'JPY');
    await expect(files.build(SHOP, batch, 'paypal')).rejects.toThrow(/PayPal receiver/);
    methods.target = { type: 'paypal', destination: 'v@example.com', recipientType: 'EMAIL' };
    expect((await files.build(SHOP, batch, 'paypal')).csv).toBe(
      `v@example.com,7,JPY,${batch},Payout batch ${batch},PAYPAL\n`,
    );
    await expect(files.build(SHOP, new Types.ObjectId().toHexString(), 'bank')).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
