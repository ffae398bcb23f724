import { userPermissions } from './user-sessions.service';

describe('userPermissions (what a portal user token holds on a request)', () => {
  it('never set (a user from before permissions): undefined, which the scope guard reads as every scope', () => {
    expect(userPermissions(undefined)).toBeUndefined();
    expect(userPermissions(null)).toBeUndefined();
  });

  it('set: those scopes, unknown values dropped; empty stays empty (no scope at all)', () => {
    expect(userPermissions(['orders:read', 'payouts:read'])).toEqual(['orders:read', 'payouts:read']);
    expect(userPermissions(['orders:read', 'admin'])).toEqual(['orders:read']);
    expect(userPermissions([])).toEqual([]);
  });
});
