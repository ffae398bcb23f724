import { createHash, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Types } from 'mongoose';
import { Clock } from '../common/clock/clock';
import { OperationContexts } from '../common/context/operation-context';
import { IdempotencyInProgressError, IdempotencyKeyMismatchError, ValidationError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import type { IdempotencyRecord } from './idempotency-record.schema';
import { Claim, IdempotencyOwner, IdempotencyRepository } from './idempotency.repository';
import { ResponseSeal } from './response-seal';

/** How long an answer is replayed (Stripe: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** How long a running request holds its key; past it (a crashed process) a retry may take the key over. */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
export const IDEMPOTENCY_KEY_RE = /^[\x20-\x7E]{1,255}$/;

/** What to do with a request that carries a key. */
export type IdempotencyStart =
  { kind: 'run'; id: Types.ObjectId; lockId: string } | { kind: 'replay'; status: number; bodyText: string };

export interface IdempotentRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  query: unknown;
  body: unknown;
}

/** Canonical JSON (object keys sorted) of what identifies a request. */
export function requestFingerprint(r: IdempotentRequest): string {
  return createHash('sha256')
    .update(canonicalJson({ m: r.method.toUpperCase(), p: r.path, q: r.query ?? {}, b: r.body ?? null }))
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** A header value as a key: 1–255 printable ASCII characters, else 422. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!IDEMPOTENCY_KEY_RE.test(value)) {
    const message = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
    throw new ValidationError(message, { fields: { 'Idempotency-Key': [message] } });
  }
  return value;
}

/**
 * Stripe's idempotency semantics over one MongoDB record per (shop, exact credential, key): see
 * IdempotencyRecord. Each request with a key costs two commands more (claim, then store or forget),
 * three when the key exists; they run in the `idempotency` operation phase.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly records: IdempotencyRepository,
    private readonly seal: ResponseSeal,
    private readonly clock: Clock,
  ) {}

  start(
    scope: ShopScope,
    owner: IdempotencyOwner,
    key: string,
    fingerprint: string,
  ): Promise<IdempotencyStart> {
    return OperationContexts.phase('idempotency', () => this.claim(scope, owner, key, fingerprint));
  }

  private async claim(
    scope: ShopScope,
    owner: IdempotencyOwner,
    key: string,
    fingerprint: string,
  ): Promise<IdempotencyStart> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const claim = this.newClaim(fingerprint);
      try {
        const id = await this.records.insert(scope, owner, key, claim);
        return { kind: 'run', id, lockId: claim.lockId };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const seen = await this.records.find(scope, owner, key);
      if (!seen) continue; // forgotten meanwhile (its request answered 5xx): claim it afresh
      const now = this.clock.now();
      const expired = seen.expiresAt.getTime() <= now.getTime();
      if (!expired && seen.fingerprint !== fingerprint) throw new IdempotencyKeyMismatchError();
      if (!expired && seen.state === 'completed') return this.replay(scope, owner, seen);
      const lapsed = expired || !seen.lockedUntil || seen.lockedUntil.getTime() <= now.getTime();
      if (!lapsed) throw new IdempotencyInProgressError(retryAfter(seen.lockedUntil!, now));
      // An expired key is free again; a claim past its lock belongs to a process that died.
      if (await this.records.takeOver(scope, seen, claim))
        return { kind: 'run', id: seen._id, lockId: claim.lockId };
    }
    throw new IdempotencyInProgressError(1);
  }

  /** Stores the answer of a request that ran (any status below 500). */
  async complete(
    scope: ShopScope,
    owner: IdempotencyOwner,
    key: string,
    run: { id: Types.ObjectId; lockId: string },
    answer: { status: number; bodyText: string },
  ): Promise<void> {
    await OperationContexts.phase('idempotency', async () => {
      const body = this.seal.seal(sealContext(scope, owner, key), answer.bodyText);
      try {
        await this.records.complete(scope, run.id, run.lockId, { status: answer.status, body });
      } catch (err) {
        // The change is made; the key stays claimed until its lock lapses (a retry then runs again).
        this.logger.warn({ err: (err as Error)?.message }, 'Could not store an idempotent answer');
      }
    });
  }

  /** Forgets the key after a 5xx answer, so a retry runs again. */
  async forget(scope: ShopScope, run: { id: Types.ObjectId; lockId: string }): Promise<void> {
    await OperationContexts.phase('idempotency', () =>
      this.records.release(scope, run.id, run.lockId).catch((err: unknown) => {
        this.logger.warn({ err: (err as Error)?.message }, 'Could not release an idempotency key');
      }),
    );
  }

  private replay(scope: ShopScope, owner: IdempotencyOwner, seen: IdempotencyRecord): IdempotencyStart {
    const bodyText = seen.body ? this.seal.open(sealContext(scope, owner, seen.key), seen.body) : null;
    if (bodyText === null || seen.status === null) {
      // Sealed with another key (DATA_ENCRYPTION_KEY changed): the answer cannot be given again.
      throw new IdempotencyKeyMismatchError();
    }
    return { kind: 'replay', status: seen.status, bodyText };
  }

  private newClaim(fingerprint: string): Claim {
    const now = this.clock.now();
    return {
      fingerprint,
      lockId: randomUUID(),
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    };
  }
}

/** A stored answer opens only for the credential that stored it. */
export function sealContext(scope: ShopScope, owner: IdempotencyOwner, key: string): string {
  return `${scope.shopId}\n${owner.kind}:${owner.id}\n${key}`;
}

function retryAfter(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
