import { paypalEventHead, stripeEventType, transmissionTimeProblem } from './provider-webhook-intake';

describe('provider webhook intake checks', () => {
  const now = new Date('2026-11-27T21:00:00.000Z');
  const FIVE_MIN = 300_000;

  it('accepts a transmission time within the window either way, refuses one outside or unparsable', () => {
    expect(transmissionTimeProblem('2026-11-27T20:55:00Z', now, FIVE_MIN)).toBeNull();
    expect(transmissionTimeProblem('2026-11-27T21:05:00Z', now, FIVE_MIN)).toBeNull();
    expect(transmissionTimeProblem('2026-11-27T20:54:59Z', now, FIVE_MIN)).toMatch(/more than 300 s/);
    expect(transmissionTimeProblem('2026-11-27T21:05:01Z', now, FIVE_MIN)).toMatch(/more than 300 s/);
    expect(transmissionTimeProblem('soon', now, FIVE_MIN)).toMatch(/not a date/);
  });

  it('reads a PayPal event’s id and type, and nothing that is not one', () => {
    const ok = Buffer.from(JSON.stringify({ id: 'WH-1', event_type: 'PAYMENT.PAYOUTS-ITEM.FAILED' }));
    expect(paypalEventHead(ok)).toMatchObject({ id: 'WH-1', event_type: 'PAYMENT.PAYOUTS-ITEM.FAILED' });
    for (const bad of ['not json', '[]', 'null', '{"id":"","event_type":"X"}', '{"id":"WH","event_type":1}'])
      expect(paypalEventHead(Buffer.from(bad))).toBeNull();
  });

  it('reads a Stripe event’s type, null for anything else', () => {
    expect(stripeEventType(Buffer.from('{"type":"transfer.reversed"}'))).toBe('transfer.reversed');
    expect(stripeEventType(Buffer.from('{"type":7}'))).toBeNull();
    expect(stripeEventType(Buffer.from('<xml/>'))).toBeNull();
  });
});
