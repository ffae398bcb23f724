import { applyDecorators, Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/domain-errors';
import {
  errorExample,
  V1ErrorDto,
  V1ServerErrorDto,
  V1UserConflictDto,
  V1VendorConflictDto,
  V2ErrorDto,
  V2ServerErrorDto,
} from './error.dto';

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed JSON body, or JSON / query parameters nested deeper than 32 levels',
  401: 'Missing, malformed, expired or revoked credential',
  403: 'Credential of the wrong kind for this endpoint',
  404: 'Unknown id, or an id of another shop or vendor',
  409: 'Conflict with the current state',
  410: 'Gone for good (an expired link); a new one must be requested',
  413: 'Body larger than 1 MB',
  422: 'Validation failed; nothing was changed',
  429: 'Too many attempts; see Retry-After',
  500: 'Unexpected error; the cause is logged under the errorId of the body',
  503: 'MongoDB or Redis is unreachable; retry after Retry-After seconds',
};

/**
 * One documented error answer. `message` (with `extra`: the v1 body's extra fields, V2 `details`)
 * becomes the response example; without it src/docs gives the status its own default example.
 */
export interface ErrorDoc {
  status: number;
  message?: string;
  description?: string;
  extra?: Record<string, unknown>;
  code?: ErrorCode;
  /** The v1 body schema when it has fields beyond `{error}` (V2 carries them in `details`). */
  v1Type?: Type<unknown>;
}

export type ErrorSpec = number | ErrorDoc;

/** 404 of an unknown (or another tenant's) id, worded as the service words it. */
export const notFound = (resource: string): ErrorDoc => ({ status: 404, message: `${resource} not found` });

/** 409 of a vendor name taken in any letter case: v1 adds `vendorName`, V2 has it in `details`. */
export const VENDOR_CONFLICT: ErrorDoc = {
  status: 409,
  description: 'A vendor with this name (in any letter case) already exists',
  message: 'A vendor named "acme apparel" already exists',
  extra: { vendorName: 'acme apparel' },
  v1Type: V1VendorConflictDto,
};

/** 409 of a user email taken in the shop: v1 adds `email`, V2 has it in `details`. */
export const USER_CONFLICT: ErrorDoc = {
  status: 409,
  description: 'A user with this email already exists in the shop',
  message: 'A user with email jane@acme.example already exists in this shop',
  extra: { email: 'jane@acme.example' },
  v1Type: V1UserConflictDto,
};

function errorResponses(api: 'v1' | 'v2', specs: ErrorSpec[]) {
  return applyDecorators(
    ...specs.map((spec) => {
      const doc = typeof spec === 'number' ? { status: spec } : spec;
      const server = doc.status >= 500;
      const type =
        api === 'v1'
          ? (doc.v1Type ?? (server ? V1ServerErrorDto : V1ErrorDto))
          : server
            ? V2ServerErrorDto
            : V2ErrorDto;
      const example = doc.message
        ? { example: errorExample(api, doc.status, doc.message, doc.extra, doc.code) }
        : {};
      return ApiResponse({
        status: doc.status,
        description: doc.description ?? ERROR_DESCRIPTIONS[doc.status],
        type,
        ...example,
      });
    }),
  );
}

/** Documents the listed error statuses in the v1 `{error}` shape. */
export const ApiV1Errors = (...specs: ErrorSpec[]) => errorResponses('v1', specs);

/** Documents the listed error statuses in the V2 envelope. */
export const ApiV2Errors = (...specs: ErrorSpec[]) => errorResponses('v2', specs);
