import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PlatformFulfillmentRequest, PlatformLineOutcome, StorePlatform } from './store-platform';

/**
 * The default adapter: no external store platform; the marketplace itself is the record of the
 * fulfillment (the caller stores tracking on the line items). One fulfillment id per order call.
 */
@Injectable()
export class LocalStorePlatform extends StorePlatform {
  readonly name = 'local';

  async createFulfillment(request: PlatformFulfillmentRequest): Promise<PlatformLineOutcome[]> {
    const fulfillmentId = `local-${randomBytes(8).toString('hex')}`;
    return request.lines.map((l) => ({
      lineItemId: l.lineItemId,
      ok: true,
      fulfillmentId,
      status: 'success',
    }));
  }
}
