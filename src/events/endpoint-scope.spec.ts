import { Types } from 'mongoose';
import { DomainError } from '../common/errors';
import {
  assertMerchantMay,
  assertMerchantMayRotate,
  endpointAuditView,
  narrowForMerchant,
  unreadableByMerchant,
} from './endpoint-scope';
import { EVENT_CATALOGUE, EVENT_TYPES, MERCHANT_EVENT_TYPES } from '../event-port/event-catalogue';
import { FanOutTarget, matchingEndpoints, mayReceive, subscribes } from '../event-port/fan-out';

const thrown = (fn: () => void): DomainError => {
  try {
    fn();
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('did not throw');
};

describe('what a merchant token may subscribe an endpoint to (issue 28)', () => {
  it('the merchant types are exactly vendors, portal users, vendor API keys, payout adjustments (and ping)', () => {
    expect([...MERCHANT_EVENT_TYPES].sort()).toEqual(
      [
        'ping',
        'payout_adjustment.created',
        'payout_adjustment.deleted',
        'payout_adjustment.paid',
        'payout_adjustment.updated',
        'user.created',
        'user.deleted',
        'user.updated',
        'vendor.created',
        'vendor.deactivated',
        'vendor.updated',
        // a merchant token administers vendor API keys (DESIGN §3)
        'vendor_api_key.created',
        'vendor_api_key.revoked',
      ].sort(),
    );
    for (const t of EVENT_TYPES.filter((x) =>
      /^(order|line_items|refund|fulfillment|payout_batch|balance|transfer)\b/.test(x),
    ))
      expect(EVENT_CATALOGUE[t].merchant).toBe(false);
  });

  it('refuses a merchant naming other types with 403, naming only those', () => {
    const err = thrown(() =>
      assertMerchantMay(['order.received', 'transfer.paid', 'vendor.created'], 'requested'),
    );
    expect(err.status).toBe(403);
    expect(err.code).toBe('FORBIDDEN');
    expect(err.details).toEqual({ refused: ['order.received', 'transfer.paid'] });
    expect(err.message).toContain('order.received, transfer.paid');
    expect(err.message).not.toContain('vendor.created:');
    expect(() => assertMerchantMay(['*'], 'requested')).not.toThrow();
    expect(() => assertMerchantMay(['user.created', 'payout_adjustment.paid'], 'kept')).not.toThrow();
  });

  it("a shop endpoint's * is every type; a merchant endpoint's * only the merchant's", () => {
    expect(unreadableByMerchant({ enabledEvents: ['*'], eventScope: 'shop' })).toContain('order.received');
    expect(unreadableByMerchant({ enabledEvents: ['*'] })).toContain('transfer.failed');
    expect(unreadableByMerchant({ enabledEvents: ['*'], eventScope: 'merchant' })).toEqual([]);
    expect(() => assertMerchantMayRotate({ enabledEvents: ['*'], eventScope: 'shop' })).toThrow(/rotate/);
    expect(() =>
      assertMerchantMayRotate({ enabledEvents: ['vendor.created'], eventScope: 'shop' }),
    ).not.toThrow();
  });

  it('narrows a list to what a merchant reads, keeping *', () => {
    expect(narrowForMerchant(['order.received', 'vendor.created'])).toEqual({
      kept: ['vendor.created'],
      removed: ['order.received'],
    });
    expect(narrowForMerchant(['*'])).toEqual({ kept: ['*'], removed: [] });
    expect(narrowForMerchant(['refund.recorded'])).toEqual({ kept: [], removed: ['refund.recorded'] });
  });

  it('fan-out: a merchant wildcard endpoint gets vendor events, never order, refund or transfer events', () => {
    const ep = (eventScope?: FanOutTarget['eventScope']): FanOutTarget => ({
      _id: new Types.ObjectId(),
      enabledEvents: ['*'],
      status: 'enabled',
      eventScope,
    });
    const merchant = ep('merchant');
    const shop = ep('shop');
    const legacy = ep(undefined);
    expect(matchingEndpoints([merchant, shop, legacy], 'vendor.created')).toEqual([merchant, shop, legacy]);
    for (const t of [
      'order.received',
      'refund.recorded',
      'transfer.paid',
      'payout_batch.paid',
      'balance.negative',
    ] as const)
      expect(matchingEndpoints([merchant, shop, legacy], t)).toEqual([shop, legacy]);
    // even when its stored list names one (an endpoint not narrowed yet)
    expect(subscribes({ ...merchant, enabledEvents: ['order.received'] }, 'order.received')).toBe(false);
    expect(mayReceive(merchant, 'ping')).toBe(true);
    expect(mayReceive(merchant, 'line_items.updated')).toBe(false);
  });

  it('the audit view of an endpoint never holds its secrets', () => {
    const view = endpointAuditView({
      url: 'https://x.example/h',
      enabledEvents: ['*'],
      status: 'enabled',
      secrets: [{ secretEnc: 'sealed', createdAt: new Date(), expiresAt: null }],
    });
    expect(JSON.stringify(view)).not.toContain('sealed');
    expect(view).toEqual({
      url: 'https://x.example/h',
      description: null,
      enabledEvents: ['*'],
      status: 'enabled',
      disabledReason: null,
      eventScope: 'shop',
      createdBy: null,
    });
  });
});
