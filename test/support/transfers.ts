import { Types } from 'mongoose';
import { shopScope } from '../../src/common/tenancy';
import { TransferDto } from '../../src/transfers/dto/transfer.dto';
import { TransfersService } from '../../src/transfers/transfers.service';
import type { TestApp } from './app';
import type { TestShop } from './factory';
import { eventually } from './webhooks';

export const STRIPE_KEY = 'sk_test_standinKey0001abcd';
export const STRIPE_WEBHOOK_SECRET = 'whsec_standinsecret0001';
export const PAYPAL_WEBHOOK_ID = 'WH-STANDIN-0001';

/**
 * The payout engine's hand-over (`createForPaidBatch`) called directly, for the rail tests that
 * need a transfer without a batch (each rail's behaviour in isolation). The engine's own call is
 * proven through POST /v1/payouts/batches in payout-rails-engine.e2e-spec.ts.
 */
export function payBatch(
  t: TestApp,
  shop: TestShop,
  vendorId: string,
  amount: number,
  batchId: string = new Types.ObjectId().toHexString(),
): Promise<TransferDto> {
  return t.app
    .get(TransfersService)
    .createForPaidBatch(shopScope(shop.shopId), { batchId, vendorId, amount });
}

export async function setMethod(t: TestApp, shop: TestShop, vendorId: string, body: Record<string, unknown>) {
  const res = await t.api.put(`/v1/vendors/${vendorId}/payout-method`, body, { token: shop.token });
  if (res.status !== 200) throw new Error(`payout method: ${res.status} ${res.text}`);
  return res.body;
}

/** Reads the transfer until it is in `state` (the queue drives it). */
export function transferIn(t: TestApp, shop: TestShop, id: string, state: string, timeoutMs = 30_000) {
  return eventually(async () => {
    const res = await t.api.get(`/v1/payouts/transfers/${id}`, { token: shop.token });
    if (res.body?.state !== state)
      throw new Error(`transfer ${id} is ${res.body?.state}, waiting for ${state}`);
    return res.body as TransferDto & { history: Array<{ to: string }> };
  }, timeoutMs);
}

/** The vendor's ADDITION adjustments (credit-backs among them), via the V2 list. */
export async function additions(t: TestApp, shop: TestShop, vendorId: string) {
  const res = await t.api.get(`/v2/payout-adjustments?vendorId=${vendorId}&type=ADDITION&limit=100`, {
    token: shop.token,
  });
  if (res.status !== 200) throw new Error(`adjustments: ${res.status} ${res.text}`);
  return res.body.data.items as Array<{ _id: string; amount: number; status: string; comments: string }>;
}

/** BigInt cents of a decimal amount: the oracle's arithmetic, independent of the code's. */
export function cents(amount: number | string): bigint {
  const [whole, frac = ''] = String(amount).split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt((frac + '00').slice(0, 2)));
}
