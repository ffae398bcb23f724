import { DomainError, ServiceUnavailableError } from '../common/errors';
import { StorePlatformUnavailable } from './platform/shopify-transport';

/**
 * The store platform answered but refused the change (its reasons are logged under the errorId the
 * message names): 502, nothing changed here. Code `SERVICE_UNAVAILABLE` like the 503: the change
 * could not be made through the platform, and the body never carries the platform's own words.
 */
export class StorePlatformRefusedError extends DomainError {
  constructor(message: string) {
    super(502, 'SERVICE_UNAVAILABLE', message);
  }
}

/** A platform call that could not be made (outage, timeout, bad token) as the 503 the caller sees. */
export function platformUnavailable(err: unknown): never {
  if (err instanceof StorePlatformUnavailable) throw new ServiceUnavailableError(err.message);
  throw err;
}
