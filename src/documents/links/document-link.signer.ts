import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ForbiddenError, GoneError } from '../../common/errors';

/** How long a signed document link works (DESIGN §14: 48 h). */
export const LINK_TTL_MS = 48 * 60 * 60 * 1000;

export type LinkKind = 'invoice' | 'packing_slip';

/**
 * What a link grants: one document of one vendor of one shop, until `exp`. An invoice link names the
 * issued document; a packing slip link names the order (the slip is rendered from its current lines).
 */
export interface LinkClaims {
  shopId: string;
  vendorId: string;
  kind: LinkKind;
  /** invoice: the document's id */
  documentId?: string;
  /** packing_slip: the store platform's order id */
  orderId?: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

/** Wire form: short keys, a fixed order, so the signed bytes of the same claims never differ. */
type Wire = { v: 1; s: string; vd: string; k: LinkKind; d?: string; o?: string; e: number };

const b64 = (b: Buffer) => b.toString('base64url');

const INVALID = 'This document link is invalid';

/**
 * Signed document links (DESIGN §14, PuppetVendors' `{url, expiresAt}`): `<claims>.<mac>`, both
 * base64url; the MAC is HMAC-SHA256 over the claims' bytes with a server key. Changing any claim
 * (shop, vendor, document or order, kind, expiry) or the MAC → 403; an authentic link past its
 * expiry → 410. The expiry is checked only once the MAC holds, so a forged "expired" link is a 403.
 */
export class DocumentLinkSigner {
  constructor(private readonly keys: { current: Buffer; previous?: Buffer | null }) {}

  sign(claims: LinkClaims): string {
    const wire: Wire = {
      v: 1,
      s: claims.shopId,
      vd: claims.vendorId,
      k: claims.kind,
      ...(claims.documentId ? { d: claims.documentId } : {}),
      ...(claims.orderId ? { o: claims.orderId } : {}),
      e: claims.exp,
    };
    const body = b64(Buffer.from(JSON.stringify(wire)));
    return `${body}.${this.mac(this.keys.current, body)}`;
  }

  /** The claims of an authentic, unexpired link; ForbiddenError (403) or GoneError (410) otherwise. */
  verify(token: string, now: Date): LinkClaims {
    const parts = token.split('.');
    if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]{43}$/.test(parts[1])) {
      throw new ForbiddenError(INVALID);
    }
    const [body, mac] = parts;
    const given = Buffer.from(mac, 'base64url');
    const authentic = [this.keys.current, this.keys.previous]
      .filter((k): k is Buffer => !!k)
      .some((k) => timingSafeEqual(Buffer.from(this.mac(k, body), 'base64url'), given));
    if (!authentic) throw new ForbiddenError(INVALID);
    const claims = parse(body);
    if (!claims) throw new ForbiddenError(INVALID);
    if (now.getTime() >= claims.exp) throw new GoneError('This document link has expired; ask for a new one');
    return claims;
  }

  private mac(key: Buffer, body: string): string {
    return b64(createHmac('sha256', key).update(body).digest());
  }
}

function parse(body: string): LinkClaims | null {
  let w: Partial<Wire>;
  try {
    w = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Wire>;
  } catch {
    return null;
  }
  const id = (x: unknown) => typeof x === 'string' && /^[0-9a-f]{24}$/.test(x);
  if (w.v !== 1 || !id(w.s) || !id(w.vd) || typeof w.e !== 'number' || !Number.isSafeInteger(w.e))
    return null;
  if (w.k === 'invoice' && id(w.d) && w.o === undefined) {
    return { shopId: w.s!, vendorId: w.vd!, kind: 'invoice', documentId: w.d, exp: w.e };
  }
  if (
    w.k === 'packing_slip' &&
    typeof w.o === 'string' &&
    /^[1-9][0-9]{0,15}$/.test(w.o) &&
    w.d === undefined
  ) {
    return { shopId: w.s!, vendorId: w.vd!, kind: 'packing_slip', orderId: w.o, exp: w.e };
  }
  return null;
}

/**
 * The link key, derived from the data-encryption key the secrets at rest are sealed with (the same
 * source DataCipher reads: DATA_ENCRYPTION_KEY, else outside production the JWT secret), under a
 * purpose label of its own, so a link MAC is never a value any other part of the system computes.
 * Without DATA_ENCRYPTION_KEY in production, the JWT secret (required there) is the source. The
 * previous data key, while a rotation is under way, still verifies links signed before it.
 */
export function linkKeys(source: {
  encryptionKey?: string;
  previousEncryptionKey?: string;
  jwtSecret: string;
}): { current: Buffer; previous: Buffer | null } {
  const derive = (material: Buffer) => createHmac('sha256', material).update('document-links:v1').digest();
  const current = source.encryptionKey
    ? Buffer.from(source.encryptionKey, 'hex')
    : createHash('sha256').update(`data-encryption:${source.jwtSecret}`).digest();
  return {
    current: derive(current),
    previous: source.previousEncryptionKey ? derive(Buffer.from(source.previousEncryptionKey, 'hex')) : null,
  };
}
