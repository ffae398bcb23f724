import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { railsConfig } from '../../config/configuration';
import { fromMinorUnits, toDecimalString, toMinorUnits } from '../../common/money';
import { RailOutage, RailRefusal, RailTransfer } from './payout-rail';
import { PaypalClient } from './paypal-client';
import { paypalOutcome, paypalPayoutRequest } from './paypal.rail';
import { ProviderCalls } from './provider-calls';
import { classifyStripeError, StripeConnectRail, stripeTransferParams } from './stripe-connect.rail';
import { providerPolicy } from './outbound-policy';

const transfer: RailTransfer = {
  id: '6745a1b2c3d4e5f6a7b8c9d0',
  shopId: '6740000000000000000000aa',
  vendorId: '6740b9f1c2a4e15b3c9d0a21',
  batchId: '6742c1d2e3f4a5b6c7d8e9f0',
  amount: 461.1,
  currency: 'USD',
  destination: 'acct_1Nv0FGQ9RKHgCVdK',
  recipientType: null,
  providerId: null,
};

describe('rail request mapping', () => {
  it('stripe: minor units, lower-case currency, destination, batch as transfer_group, ids in metadata', () => {
    expect(stripeTransferParams(transfer)).toEqual({
      amount: 46110,
      currency: 'usd',
      destination: 'acct_1Nv0FGQ9RKHgCVdK',
      transfer_group: transfer.batchId,
      metadata: {
        shopId: transfer.shopId,
        vendorId: transfer.vendorId,
        batchId: transfer.batchId,
        transferId: transfer.id,
      },
    });
    expect(stripeTransferParams({ ...transfer, amount: 1000, currency: 'JPY' }).amount).toBe(1000);
    expect(stripeTransferParams({ ...transfer, amount: 0.29 }).amount).toBe(29); // not 28.999…
  });

  it('paypal: one item, sender_batch_id = sender_item_id = transfer id, 2-dp string amount', () => {
    const body = paypalPayoutRequest({
      ...transfer,
      destination: 'v@example.com',
      recipientType: 'EMAIL',
      amount: 50,
    });
    expect(body.sender_batch_header.sender_batch_id).toBe(transfer.id);
    expect(body.items).toEqual([
      {
        recipient_type: 'EMAIL',
        amount: { value: '50.00', currency: 'USD' },
        receiver: 'v@example.com',
        note: `Payout batch ${transfer.batchId}`,
        sender_item_id: transfer.id,
      },
    ]);
  });

  it('paypal item statuses: SUCCESS paid; FAILED/RETURNED/BLOCKED failed; UNCLAIMED/PENDING pending', () => {
    expect(paypalOutcome('SUCCESS', { transaction_status: 'SUCCESS', transaction_id: 'TX1' })).toEqual({
      kind: 'paid',
      providerStatus: 'SUCCESS',
      reference: 'TX1',
    });
    for (const s of ['FAILED', 'RETURNED', 'BLOCKED', 'REFUNDED']) {
      expect(paypalOutcome('SUCCESS', { transaction_status: s }).kind).toBe('failed');
    }
    expect(paypalOutcome('SUCCESS', { transaction_status: 'UNCLAIMED' })).toEqual({
      kind: 'pending',
      providerStatus: 'UNCLAIMED',
    });
    expect(paypalOutcome('PROCESSING', { transaction_status: 'PENDING' }).kind).toBe('pending');
    expect(paypalOutcome('DENIED', undefined).kind).toBe('failed');
  });

  it('stripe errors: no status, 5xx and 429 are outages; 4xx refusals', () => {
    expect(classifyStripeError({ type: 'StripeConnectionError' })).toBeInstanceOf(RailOutage);
    expect(classifyStripeError({ statusCode: 503 })).toBeInstanceOf(RailOutage);
    expect(classifyStripeError({ statusCode: 429 })).toBeInstanceOf(RailOutage);
    const refused = classifyStripeError({
      statusCode: 400,
      code: 'account_invalid',
      message: 'No such destination',
    });
    expect(refused).toBeInstanceOf(RailRefusal);
    expect(refused.message).toContain('account_invalid');
  });

  it('stripe idempotency conflicts and other unknown outcomes are outages (same key again), never refusals', () => {
    // 409: another request with the same Idempotency-Key is in flight (its outcome is unknown yet)
    const inFlight = new Stripe.errors.StripeAPIError({
      statusCode: 409,
      type: 'invalid_request_error',
      code: 'idempotency_key_in_use',
      message: 'There is currently another in-progress request using this Stripe-Idempotency-Key.',
    });
    expect(classifyStripeError(inFlight)).toBeInstanceOf(RailOutage);
    // The SDK's StripeIdempotencyError (idempotency_error): the key's first request is not this one
    const keyReused = new Stripe.errors.StripeIdempotencyError({
      statusCode: 400,
      type: 'idempotency_error',
      message:
        'Keys for idempotent requests can only be used with the same parameters they were first used with.',
    });
    expect(classifyStripeError(keyReused)).toBeInstanceOf(RailOutage);
    expect(classifyStripeError({ type: 'StripeIdempotencyError', statusCode: 400 })).toBeInstanceOf(
      RailOutage,
    );
    // A plain refusal stays one
    expect(classifyStripeError({ statusCode: 402, code: 'insufficient_funds' })).toBeInstanceOf(RailRefusal);
  });

  it('provider error texts never carry a key', () => {
    const e = classifyStripeError({
      statusCode: 401,
      message: 'Invalid API Key provided: sk_test_****************abcd',
    });
    expect(e.message).not.toMatch(/abcd/);
    expect(new RailRefusal('bad whsec_abcDEF123== and rk_live_XYZ987', 'stripe').message).toBe(
      'bad whsec_… and rk_live_…',
    );
  });

  it('money: minor units and back, half-up', () => {
    expect(toMinorUnits(10.005, 'USD')).toBe(1001);
    expect(toMinorUnits(1234.5, 'JPY')).toBe(1235);
    expect(toDecimalString(7, 'EUR')).toBe('7.00');
    expect(fromMinorUnits(8880, 'usd')).toBe(88.8);
    expect(fromMinorUnits(500, 'JPY')).toBe(500);
  });

  it('the provider policy: https to the provider hosts only, loopback only with an override outside production', () => {
    const prod = providerPolicy(['api.stripe.com'], undefined, true);
    expect(prod).toMatchObject({ allowHttp: false, allowPrivate: false });
    expect(prod.allowHost!('api.stripe.com')).toBe(true);
    expect(prod.allowHost!('evil.example.com')).toBe(false);
    expect(providerPolicy(['api.stripe.com'], 'http://127.0.0.1:12111', false)).toMatchObject({
      allowHttp: false,
      allowPrivate: false,
    });
    expect(providerPolicy(['api.stripe.com'], 'http://127.0.0.1:12111', true)).toMatchObject({
      allowHttp: true,
      allowPrivate: true,
    });
  });
});

describe('the transfer lease covers a whole Stripe call (issue 28)', () => {
  const saved = process.env.TRANSFER_LEASE_SECONDS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRANSFER_LEASE_SECONDS;
    else process.env.TRANSFER_LEASE_SECONDS = saved;
  });

  it.each(['15', '30', '61', '90', '600'])(
    'TRANSFER_LEASE_SECONDS=%s: timeout × (1 + network retries) + 5 s slack ≤ the lease',
    (lease) => {
      process.env.TRANSFER_LEASE_SECONDS = lease;
      const cfg = railsConfig();
      const client = new StripeConnectRail(cfg, new ProviderCalls()).client('sk_test_leaseCheck0001');
      const worstCaseMs = client.getApiField('timeout') * (client.getMaxNetworkRetries() + 1) + 5_000;
      expect(worstCaseMs).toBeLessThanOrEqual(cfg.leaseMs);
      // and never more than Stripe's own 30 s per try (the shortest a lease may make it: 5 s)
      expect(client.getApiField('timeout')).toBeLessThanOrEqual(30_000);
      expect(client.getApiField('timeout')).toBeGreaterThanOrEqual(5_000);
    },
  );
});

describe('PaypalClient', () => {
  let server: Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/oauth2/token')
        return res.end(JSON.stringify({ access_token: 'T', expires_in: 3600 }));
      res.statusCode = 400;
      res.end(
        JSON.stringify({
          name: 'USER_BUSINESS_ERROR',
          details: [{ issue: 'SENDER_BATCH_ID_ALREADY_USED' }],
          links: [{ href: `${base}/v1/payments/payouts/FIRST123`, rel: 'self' }],
        }),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('a refused duplicate sender_batch_id answers the payout PayPal already has; the token is cached', async () => {
    const client = new PaypalClient({ allowHttp: true, allowPrivate: true });
    const account = { baseUrl: base, clientId: 'id', clientSecret: 'secret' };
    const body = paypalPayoutRequest({ ...transfer, destination: 'v@example.com', recipientType: 'EMAIL' });
    expect((await client.createPayout(account, body)).payout_batch_id).toBe('FIRST123');
    expect((await client.createPayout(account, body)).payout_batch_id).toBe('FIRST123');
    expect(seen.filter((s) => s.includes('oauth2'))).toHaveLength(1);
  });

  it('an unreachable PayPal is an outage; the guard refuses loopback without the override', async () => {
    const account = { baseUrl: 'http://127.0.0.1:1', clientId: 'id', clientSecret: 'secret' };
    await expect(
      new PaypalClient({ allowHttp: true, allowPrivate: true }).createPayout(
        account,
        paypalPayoutRequest(transfer),
      ),
    ).rejects.toBeInstanceOf(RailOutage);
    const guarded = new PaypalClient({ allowHttp: false, allowPrivate: false });
    await expect(
      guarded.createPayout({ ...account, baseUrl: base }, paypalPayoutRequest(transfer)),
    ).rejects.toBeInstanceOf(RailOutage);
  });
});
