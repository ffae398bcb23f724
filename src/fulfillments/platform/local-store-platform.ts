import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  PlatformChangeOutcome,
  PlatformFulfillmentRequest,
  PlatformLineOutcome,
  StorePlatform,
} from './store-platform';

/**
 * The default adapter: no external store platform; the marketplace itself is the record of the
 * fulfillment (the caller stores tracking on the line items, and clears it on a cancel). One
 * fulfillment id per order call; tracking changes and cancels always succeed here.
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

  async updateTracking(): Promise<PlatformChangeOutcome> {
    return { ok: true };
  }

  async cancelFulfillment(): Promise<PlatformChangeOutcome> {
    return { ok: true };
  }
}
