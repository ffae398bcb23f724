import type { Logger } from '@nestjs/common';
import type { Types } from 'mongoose';
import type { DataCipher, SecretPurpose } from './data-cipher';
import { eachById } from './each-by-id';

/** Documents read per page by a re-seal walk. */
const PAGE = 200;

/** What one `secrets:rotate` walk over a collection did. */
export interface ResealReport {
  /** Documents holding a sealed value (every document read, with `countEmpty`). */
  documents: number;
  /** Documents whose values were re-sealed under the current key (one write each). */
  resealed: number;
  /** Values already under the current key. */
  current: number;
  /** Values no configured key opens (left as they are; the owner must enter them again). */
  unreadable: number;
  /** Documents changed through the API during the run (left; run the command again). */
  skipped: number;
}

/** One sealed field of a document: what it was sealed for (purpose and associated data) and what is stored. */
export interface SealedField {
  purpose: SecretPurpose;
  binding: string;
  stored: string | null | undefined;
}

/** A collection whose sealed fields `secrets:rotate` re-seals. */
export interface ResealTarget<T extends { _id: Types.ObjectId }> {
  /** Every document by `_id` ascending, `after` exclusive (a system read across shops). */
  page(after: Types.ObjectId | null, limit: number): Promise<T[]>;
  /** The fields to re-seal, in a fixed order (an empty field: `stored` null). */
  fields(doc: T): SealedField[];
  /**
   * The one compare-and-set write: `next` holds each field in `fields`' order, re-sealed or as it was.
   * False when the document changed since it was read (never overwrite a newer value).
   */
  replace(doc: T, next: Array<string | null>): Promise<boolean>;
  /** Where an unreadable value is logged, and what the line names (e.g. "A shop legal tax id"). */
  logger: Logger;
  what: string;
  /** The log fields of an unreadable value (ids, never the value). */
  logFields(doc: T, index: number): Record<string, unknown>;
  /** Count every document read in `documents`, not only those holding a sealed value. */
  countEmpty?: boolean;
}

/**
 * `secrets:rotate`'s one loop (DESIGN §3, §14): every sealed field of every document is opened with the
 * current or previous DATA_ENCRYPTION_KEY and re-sealed under the current one. Idempotent and resumable:
 * a value under the current key is left alone, each document is one compare-and-set write, so a run
 * stopped mid-way (a crash, a failed write) is finished by running the command again.
 */
export async function resealAll<T extends { _id: Types.ObjectId }>(
  cipher: DataCipher,
  target: ResealTarget<T>,
): Promise<ResealReport> {
  const report: ResealReport = { documents: 0, resealed: 0, current: 0, unreadable: 0, skipped: 0 };
  await eachById(
    (after, limit) => target.page(after, limit),
    PAGE,
    (doc) => resealOne(cipher, target, doc, report),
  );
  return report;
}

async function resealOne<T extends { _id: Types.ObjectId }>(
  cipher: DataCipher,
  target: ResealTarget<T>,
  doc: T,
  report: ResealReport,
): Promise<void> {
  const fields = target.fields(doc);
  if (!target.countEmpty && !fields.some((f) => f.stored)) return;
  report.documents++;
  let changed = false;
  const next = fields.map(({ purpose, binding, stored }, index) => {
    if (!stored) return stored ?? null;
    if (!cipher.isStale(stored)) {
      report.current++;
      return stored;
    }
    const plain = cipher.open(purpose, binding, stored);
    if (plain === null) {
      report.unreadable++;
      target.logger.warn(
        target.logFields(doc, index),
        `${target.what} opens under no configured key; left as it is`,
      );
      return stored;
    }
    changed = true;
    return cipher.seal(purpose, binding, plain);
  });
  if (!changed) return;
  if (await target.replace(doc, next)) report.resealed++;
  else report.skipped++;
}
