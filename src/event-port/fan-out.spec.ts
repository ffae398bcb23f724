import { Types } from 'mongoose';
import { deliveryId, eventIdFor, FanOutTarget, matchingEndpoints, subscribes } from './fan-out';
import { EVENT_TYPES, fromAudit } from './event-catalogue';

const ep = (enabledEvents: string[], status: FanOutTarget['status'] = 'enabled'): FanOutTarget => ({
  _id: new Types.ObjectId(),
  enabledEvents,
  status,
});

describe('fan-out matching', () => {
  const all = ep(['*']);
  const vendors = ep(['vendor.created', 'vendor.updated']);
  const off = ep(['*'], 'disabled');

  it('sends an event to every enabled endpoint that takes its type', () => {
    expect(matchingEndpoints([all, vendors, off], 'vendor.created')).toEqual([all, vendors]);
    expect(matchingEndpoints([all, vendors, off], 'user.created')).toEqual([all]);
    expect(matchingEndpoints([vendors], 'vendor.deactivated')).toEqual([]);
  });

  it('never fans out ping (it goes to the endpoint it is sent to)', () => {
    expect(subscribes(all, 'ping')).toBe(false);
  });

  it('derives one delivery id per event and endpoint, stable across calls', () => {
    const e = eventIdFor(new Types.ObjectId().toHexString());
    expect(deliveryId(e, all._id)).toEqual(deliveryId(e, all._id));
    expect(deliveryId(e, all._id)).not.toEqual(deliveryId(e, vendors._id));
    expect(eventIdFor('6750a1b2c3d4e5f6a7b8c9d0')).toBe('evt_6750a1b2c3d4e5f6a7b8c9d0');
    expect(eventIdFor('payout_batch.paid:b1')).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(eventIdFor('payout_batch.paid:b1')).toBe(eventIdFor('payout_batch.paid:b1'));
  });

  it('maps audited writes onto catalogue types', () => {
    expect(fromAudit({ action: 'vendor.create', after: {} })).toBe('vendor.created');
    expect(fromAudit({ action: 'vendor.update', after: { active: false } })).toBe('vendor.deactivated');
    expect(fromAudit({ action: 'vendor.update', after: { commissionAmount: 5 } })).toBe('vendor.updated');
    expect(fromAudit({ action: 'vendor.profile.update', after: {} })).toBe('vendor.updated');
    expect(fromAudit({ action: 'user.delete', after: null })).toBe('user.deleted');
    expect(fromAudit({ action: 'payout_adjustment.update', after: {} })).toBe('payout_adjustment.updated');
    expect(fromAudit({ action: 'merchant_key.create', after: {} })).toBeNull();
    for (const t of ['vendor.created', 'refund.recorded', 'balance.negative', 'ping'])
      expect(EVENT_TYPES).toContain(t);
  });
});
