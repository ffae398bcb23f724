import { ValidationError } from '../common/errors';
import { validated } from './payout-methods.service';

describe('payout method validation (format, not reachability)', () => {
  it('accepts each method in its own shape, trimming the PayPal receiver', () => {
    expect(validated({ type: 'manual' })).toEqual({
      type: 'manual',
      accountId: null,
      receiver: null,
      recipientType: null,
    });
    expect(validated({ type: 'stripe_connect', accountId: 'acct_1Nv0FGQ9RKHgCVdK' }).accountId).toBe(
      'acct_1Nv0FGQ9RKHgCVdK',
    );
    expect(validated({ type: 'paypal', receiver: ' v@example.com ', recipientType: 'EMAIL' }).receiver).toBe(
      'v@example.com',
    );
    expect(
      validated({ type: 'paypal', receiver: 'ABCDEFGHJKLMN', recipientType: 'PAYPAL_ID' }).recipientType,
    ).toBe('PAYPAL_ID');
    expect(validated({ type: 'paypal', receiver: '+14155550123', recipientType: 'PHONE' }).receiver).toBe(
      '+14155550123',
    );
  });

  it.each([
    [{ type: 'stripe_connect' as const }, 'accountId'],
    [{ type: 'stripe_connect' as const, accountId: 'acct_' }, 'accountId'],
    [{ type: 'paypal' as const, receiver: 'x@y', recipientType: 'EMAIL' as const }, 'receiver'],
    [{ type: 'paypal' as const, receiver: 'abcdefghjklmn', recipientType: 'PAYPAL_ID' as const }, 'receiver'],
    [{ type: 'paypal' as const, receiver: '555-0123', recipientType: 'PHONE' as const }, 'receiver'],
    [{ type: 'paypal' as const, receiver: 'v@example.com' }, 'recipientType'],
    [{ type: 'manual' as const, receiver: 'v@example.com' }, 'receiver'],
  ])('%j → 422 on %s', (body, field) => {
    try {
      validated(body);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect(Object.keys((err as ValidationError).details!.fields as object)).toContain(field);
    }
  });
});
