import { GoneError, ForbiddenError } from '../../common/errors';
import { DocumentLinkSigner, LINK_TTL_MS, type LinkClaims, linkKeys } from './document-link.signer';

const keys = linkKeys({ encryptionKey: 'ab'.repeat(32), jwtSecret: 'unused' });
const signer = new DocumentLinkSigner(keys);
const NOW = new Date('2026-11-28T10:00:00.000Z');
const invoice: LinkClaims = {
  shopId: '6740b9f1c2a4e15b3c9d0a01',
  vendorId: '6740b9f1c2a4e15b3c9d0a21',
  kind: 'invoice',
  documentId: '6750aa00aa00aa00aa00aa01',
  exp: NOW.getTime() + LINK_TTL_MS,
};
const slip: LinkClaims = {
  shopId: invoice.shopId,
  vendorId: invoice.vendorId,
  kind: 'packing_slip',
  orderId: '5549201834154',
  exp: invoice.exp,
};

/** A token whose claims were edited (the MAC kept): what a tamperer can do without the key. */
function withClaims(token: string, edit: (w: Record<string, unknown>) => void): string {
  const [body, mac] = token.split('.');
  const w = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  edit(w);
  return `${Buffer.from(JSON.stringify(w)).toString('base64url')}.${mac}`;
}

const refusal = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return null;
};

describe('DocumentLinkSigner', () => {
  it('verifies its own links and gives back exactly the claims signed', () => {
    expect(signer.verify(signer.sign(invoice), NOW)).toEqual(invoice);
    expect(signer.verify(signer.sign(slip), NOW)).toEqual(slip);
  });

  it.each([
    ['shop', (w: Record<string, unknown>) => (w.s = '6740b9f1c2a4e15b3c9d0a02')],
    ['vendor', (w: Record<string, unknown>) => (w.vd = '6740b9f1c2a4e15b3c9d0a22')],
    ['document', (w: Record<string, unknown>) => (w.d = '6750aa00aa00aa00aa00aa02')],
    ['kind', (w: Record<string, unknown>) => (w.k = 'packing_slip')],
    ['expiry', (w: Record<string, unknown>) => (w.e = (w.e as number) + 1)],
    ['version', (w: Record<string, unknown>) => (w.v = 2)],
  ])('refuses a link whose %s was changed (403)', (_, edit) => {
    const e = refusal(() => signer.verify(withClaims(signer.sign(invoice), edit), NOW));
    expect(e).toBeInstanceOf(ForbiddenError);
    expect((e as ForbiddenError).status).toBe(403);
  });

  it('refuses a packing slip link moved to another order (403)', () => {
    const moved = withClaims(signer.sign(slip), (w) => (w.o = '5549201834155'));
    expect(refusal(() => signer.verify(moved, NOW))).toBeInstanceOf(ForbiddenError);
  });

  it('refuses a changed MAC, a truncated token, garbage, and another key’s link (403)', () => {
    const token = signer.sign(invoice);
    const [body, mac] = token.split('.');
    const flipped = `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const otherKey = new DocumentLinkSigner(linkKeys({ encryptionKey: 'cd'.repeat(32), jwtSecret: 'x' }));
    for (const bad of [flipped, body, `${body}.`, 'x.y', '', `${token}.x`, otherKey.sign(invoice)]) {
      expect(refusal(() => signer.verify(bad, NOW))).toBeInstanceOf(ForbiddenError);
    }
  });

  it('expires exactly at exp: the millisecond before works, exp itself is 410', () => {
    const token = signer.sign(invoice);
    expect(signer.verify(token, new Date(invoice.exp - 1))).toEqual(invoice);
    const e = refusal(() => signer.verify(token, new Date(invoice.exp)));
    expect(e).toBeInstanceOf(GoneError);
    expect((e as GoneError).status).toBe(410);
  });

  it('checks the MAC before the expiry: a tampered expired link is 403, not 410', () => {
    const old = signer.sign({ ...invoice, exp: NOW.getTime() - 1 });
    expect(refusal(() => signer.verify(old, NOW))).toBeInstanceOf(GoneError);
    const forged = withClaims(old, (w) => (w.vd = '6740b9f1c2a4e15b3c9d0a22'));
    expect(refusal(() => signer.verify(forged, NOW))).toBeInstanceOf(ForbiddenError);
  });

  it('still verifies links signed under the previous data key during a rotation', () => {
    const before = new DocumentLinkSigner(linkKeys({ encryptionKey: 'cd'.repeat(32), jwtSecret: 'x' }));
    const rotated = new DocumentLinkSigner(
      linkKeys({ encryptionKey: 'ab'.repeat(32), previousEncryptionKey: 'cd'.repeat(32), jwtSecret: 'x' }),
    );
    expect(rotated.verify(before.sign(invoice), NOW)).toEqual(invoice);
  });

  it('derives a link key distinct from the data key itself', () => {
    expect(keys.current.equals(Buffer.from('ab'.repeat(32), 'hex'))).toBe(false);
    expect(keys.current).toHaveLength(32);
  });
});
