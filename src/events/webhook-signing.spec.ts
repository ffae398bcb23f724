import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  activeSecrets,
  newSigningSecret,
  ROTATION_OVERLAP_MS,
  rotateSecrets,
  signDelivery,
} from './webhook-signing';

const T0 = new Date('2026-11-25T10:00:00.000Z');
const body = JSON.stringify({ id: 'evt_6750a1b2c3d4e5f6a7b8c9d0', type: 'ping', data: { object: {} } });

/** The Standard Webhooks signature, computed independently of the library. */
function oracle(secret: string, id: string, ts: string, payload: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${payload}`).digest('base64')}`;
}

describe('webhook signing and rotation', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('signs id.timestamp.body with HMAC-SHA256 as the spec says, and the library verifies it', () => {
    const secret = newSigningSecret();
    const now = new Date();
    const h = signDelivery('evt_1', body, [{ secret, createdAt: T0, expiresAt: null }], now, now);
    expect(h['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(h['webhook-signature']).toBe(oracle(secret, 'evt_1', h['webhook-timestamp'], body));
    expect(new Webhook(secret).verify(body, { ...h })).toEqual(JSON.parse(body));
  });

  it('after a rotation signs with both secrets until the overlap ends, then with the new one only', () => {
    const old = { secret: newSigningSecret(), createdAt: T0, expiresAt: null };
    const fresh = newSigningSecret();
    const rotated = rotateSecrets([old], fresh, T0);
    expect(rotated).toEqual([
      { secret: fresh, createdAt: T0, expiresAt: null },
      { ...old, expiresAt: new Date(T0.getTime() + ROTATION_OVERLAP_MS) },
    ]);
    const inside = new Date(T0.getTime() + ROTATION_OVERLAP_MS - 1);
    const after = new Date(T0.getTime() + ROTATION_OVERLAP_MS);
    const sentAt = new Date();
    const two = signDelivery('evt_2', body, rotated, sentAt, inside)['webhook-signature'].split(' ');
    expect(two).toHaveLength(2);
    const ts = String(Math.floor(sentAt.getTime() / 1000));
    expect(two).toEqual([oracle(fresh, 'evt_2', ts, body), oracle(old.secret, 'evt_2', ts, body)]);
    expect(signDelivery('evt_2', body, rotated, sentAt, after)['webhook-signature']).toBe(
      oracle(fresh, 'evt_2', ts, body),
    );
    expect(activeSecrets(rotated, after)).toHaveLength(1);
  });

  it('a second rotation drops secrets already expired and keeps at most the overlap pair', () => {
    const s1 = { secret: newSigningSecret(), createdAt: T0, expiresAt: null };
    const r1 = rotateSecrets([s1], newSigningSecret(), T0);
    const later = new Date(T0.getTime() + 2 * ROTATION_OVERLAP_MS);
    const r2 = rotateSecrets(r1, newSigningSecret(), later);
    expect(r2).toHaveLength(2);
    expect(r2.map((s) => s.secret)).not.toContain(s1.secret);
  });
});
