import { Types } from 'mongoose';
import { applySet, auditRecord, deletionEventId, fieldChanges, REDACTED } from './audit-record';

describe('audit records', () => {
  it('keep only the changed fields, nested objects leaf by leaf, arrays whole', () => {
    const before = { name: 'a', address: { city: 'X', country: 'GB' }, profile: [{ field: 'f', value: 1 }] };
    const after = applySet(before, { 'address.city': 'Y', profile: [{ field: 'f', value: 2 }] });
    expect(fieldChanges(before, after)).toEqual({
      before: { address: { city: 'X' }, profile: [{ field: 'f', value: 1 }] },
      after: { address: { city: 'Y' }, profile: [{ field: 'f', value: 2 }] },
    });
    expect(fieldChanges(before, { ...before })).toBeNull();
  });

  it('never hold a secret: keys, passwords and tokens are redacted wherever they appear', () => {
    const stamp = {
      key: 'k',
      at: new Date(0),
      actor: { kind: 'shop' as const, id: 's' },
      requestId: null,
      clientRequestId: null,
    };
    const r = auditRecord(new Types.ObjectId().toHexString(), stamp, {
      action: 'merchant_key.create',
      resource: { type: 'merchant_key', id: new Types.ObjectId() },
      before: null,
      after: { name: 'erp', key: 'mk_live_secret', nested: { password: 'p', accessToken: 't' } },
    });
    expect(JSON.stringify(r)).not.toMatch(/mk_live_secret|"p"|"t"/);
    expect(r.after).toEqual({
      name: 'erp',
      key: REDACTED,
      nested: { password: REDACTED, accessToken: REDACTED },
    });
    expect(r.facets).toEqual(
      expect.arrayContaining([
        't:merchant_key',
        'a:merchant_key.create',
        'k:shop',
        'u:s',
        `r:${r.resource.id}`,
      ]),
    );
  });

  it('store ids and dates as strings', () => {
    const id = new Types.ObjectId();
    expect(fieldChanges({ v: null }, { v: id })?.after).toEqual({ v: id.toHexString() });
    expect(fieldChanges({ d: null }, { d: new Date(0) })?.after).toEqual({ d: '1970-01-01T00:00:00.000Z' });
  });

  it('a resource has one deletion event id', () => {
    expect(deletionEventId('user', 'a').equals(deletionEventId('user', 'a'))).toBe(true);
    expect(deletionEventId('user', 'a').equals(deletionEventId('user', 'b'))).toBe(false);
  });
});
